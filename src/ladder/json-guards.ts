// Reading JSON the catalog snapshot keeps (snapshot-file.ts, kept-entries.ts): the file is untrusted,
// so what it holds is parsed without throwing and checked against the shape expected.

/** The value a JSON text holds, or undefined for one that is not JSON. */
export function parseJson(text: string | Buffer): unknown {
  try {
    return JSON.parse(typeof text === 'string' ? text : text.toString('utf8'));
  } catch {
    return undefined;
  }
}

export const isString = (v: unknown): v is string => typeof v === 'string';
export const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
export const isPair = <A, B>(v: unknown, first: (x: unknown) => x is A, second: (x: unknown) => x is B): v is [A, B] =>
  Array.isArray(v) && v.length === 2 && first(v[0]) && second(v[1]);
export const isList = <T>(v: unknown, item: (x: unknown) => x is T): v is T[] => Array.isArray(v) && v.every(item);
