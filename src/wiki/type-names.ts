// The `type` a page's folder asks for. Upstream's rule: the top folder's name itself (`concepts/` →
// `concepts`). Many wikis write the singular instead (`concepts/` → `concept`, `entities/` →
// `entity`); `validate.types: singular` accepts that too.
import type { ValidateTypeNames } from '../config/config.js';

/**
 * English plural to singular by spelling alone, so it fits any folder name without a word list:
 * `-ies` → `-y` (entities), `-sses`, `-xes`, `-zes`, `-ches`, `-shes` lose `-es` (classes, boxes,
 * patches), any other `-s` but `-ss` is dropped (concepts, sources, analyses → analyse). A name it
 * does not change (meta, glossary) is its own singular.
 */
export function singularOf(name: string): string {
  if (/ies$/i.test(name)) return `${name.slice(0, -3)}y`;
  if (/(ss|x|z|ch|sh)es$/i.test(name)) return name.slice(0, -2);
  if (/[^s]s$/i.test(name)) return name.slice(0, -1);
  return name;
}

/** The type names a page in the top folder `folder` may have, the one to suggest first. */
export function typesFor(folder: string, names: ValidateTypeNames): string[] {
  const singular = singularOf(folder);
  return names === 'singular' && singular !== folder ? [singular, folder] : [folder];
}
