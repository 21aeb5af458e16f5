// Which pages record a question the wiki could not answer: read by the ranking (an open capture is
// never coverage) and by the capture planner (a question's open capture is updated, not duplicated).
import type { PyValue } from './python-compat.js';

/**
 * A page the steward wrote for a question it could not answer is a record of that gap until a
 * reviewer writes the answer and deletes its `captured_by` line: that one line is what every
 * capture pull request, merge reply and answer tells the reviewer to delete, so it alone decides.
 * The `capture` tag stays as history of how the page began.
 */
export function isOpenCapture(data: Readonly<Record<string, PyValue>> | undefined): boolean {
  return data?.captured_by !== undefined && data.captured_by !== null;
}
