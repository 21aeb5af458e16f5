// Which pages record a question the wiki could not answer: read by the ranking (an open capture is
// never coverage) and by the capture planner (a question's open capture is updated, not duplicated).
import { stringList } from './frontmatter.js';
import type { PyValue } from './python-compat.js';

/**
 * A page the steward wrote for a question it could not answer is a record of that gap until a
 * reviewer writes the answer and deletes its `captured_by` line. Captures made before that mark
 * existed carry the `capture` tag on a `queries` page instead.
 */
export function isOpenCapture(path: string, data: Readonly<Record<string, PyValue>> | undefined): boolean {
  if (!data) return false;
  if (data.captured_by !== undefined && data.captured_by !== null) return true;
  return path.split('/')[0] === 'queries' && stringList(data.tags).includes('capture');
}
