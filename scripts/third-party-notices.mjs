// The licence notices a bundle must carry: for every package esbuild took code from (its metafile's
// inputs under node_modules), the package's name, version and declared licence, and the text of its
// licence and notice files as the package ships them. Sorted by name, so a rebuild of the same
// inputs writes the same file (the Action's copy is committed and checked).
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';

const LICENCE_FILE = /^(?:licen[cs]e|copying|notice)(?:[.-].*)?$/i;

/** The package folder (relative to the project root) a bundled input comes from, or undefined for the project's own code. */
function packageFolder(input) {
  const parts = input.split('/');
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) return undefined;
  const length = parts[at + 1]?.startsWith('@') ? 2 : 1;
  return parts.slice(0, at + 1 + length).join('/');
}

/** The notices text for the packages the metafiles' inputs come from. */
export async function thirdPartyNotices(root, metafiles) {
  const folders = new Set(metafiles.flatMap((metafile) => Object.keys(metafile.inputs).map(packageFolder)).filter(Boolean));
  const packages = await Promise.all(
    [...folders].map(async (folder) => {
      const where = path.join(root, folder);
      const manifest = JSON.parse(await readFile(path.join(where, 'package.json'), 'utf8'));
      const files = (await readdir(where)).filter((name) => LICENCE_FILE.test(name)).sort();
      const texts = await Promise.all(files.map((name) => readFile(path.join(where, name), 'utf8')));
      return { name: manifest.name, version: manifest.version, licence: manifest.license ?? 'not declared', texts };
    }),
  );
  // One entry per name and version: the same package may sit in more than one folder.
  const seen = new Map(packages.map((p) => [`${p.name}@${p.version}`, p]));
  const entries = [...seen.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.version < b.version ? -1 : 1));
  const rule = '-'.repeat(72);
  const body = entries.map(({ name, version, licence, texts }) =>
    [`${name} ${version} (${licence})`, '', ...(texts.length > 0 ? texts.map((t) => t.trim()) : ['(the package ships no licence file)'])].join('\n'),
  );
  return `This bundle includes code from the following packages, under the licences below.\n\n${rule}\n${body.join(`\n${rule}\n`)}\n`;
}
