// GitHub issue forms: the body GitHub writes from a form is one `### <label>` heading per field,
// then what the asker typed, or `_No response_` for a field left empty.

const EMPTY_FIELD = /^### [^\n]*\n\n_No response_[ \t]*(?:\n+|$)/gm;

/** The body without the fields the asker left empty: their labels and GitHub's placeholder are not the asker's words. */
export const withoutEmptyFormFields = (body: string): string => body.replace(EMPTY_FIELD, '');
