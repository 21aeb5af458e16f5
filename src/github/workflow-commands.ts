// The runner's workflow commands (`::warning file=a.md,line=3::text`), as GitHub's documentation of
// them specifies: one line each, the message and the properties escaped so that no text can end the
// command or start another. Written here, not through @actions/core, because the toolkit writes to
// the process's own stdout and reads its environment: the steward writes to the stream its shell
// gives it (the step's log, or a test's buffer), so the same code runs in a runner and in a test.

/** Where an annotation points: GitHub's names for the command's properties. */
export interface AnnotationProperties {
  title?: string | undefined;
  file?: string | undefined;
  line?: number | undefined;
  endLine?: number | undefined;
  col?: number | undefined;
  endColumn?: number | undefined;
}

const escapeData = (text: string): string => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

const escapeProperty = (text: string): string => escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** The properties in the order the runner documents them (and the toolkit writes them). */
const PROPERTY_ORDER = ['title', 'file', 'line', 'endLine', 'col', 'endColumn'] as const;

/** One workflow command line (no line break at its end); properties without a value are left out. */
export function workflowCommand(name: string, message: string, properties: AnnotationProperties = {}): string {
  const props = PROPERTY_ORDER.filter((key) => properties[key] !== undefined && properties[key] !== '').map(
    (key) => `${key}=${escapeProperty(String(properties[key]))}`,
  );
  return `::${name}${props.length > 0 ? ` ${props.join(',')}` : ''}::${escapeData(message)}`;
}
