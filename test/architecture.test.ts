// Keeps the architecture honest. A small scanner of our own reads every .ts file under src/, finds its
// import specifiers, and enforces four rules: rooms only import their own floor or lower floors, no
// import circles between files, @actions/* only in action/ and github/, and relative imports resolve.
// A fifth keeps markdown read in one place: no file outside src/markdown/ (in src/ and eval/) scans
// for the frontmatter delimiter, pairs backtick runs or matches headings with an expression of its own.
// The scanning functions take a map of path → source, so the scanner is unit-tested on samples below.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The rooms of src/, lowest floor first. A room may import its own files, rooms on its floor and lower floors. */
const FLOORS: readonly (readonly string[])[] = [
  ['net', 'git', 'markdown'],
  ['config'],
  ['wiki'],
  ['ladder', 'web'],
  ['answer'],
  ['capture', 'digest', 'hooks', 'report'],
  ['github'],
  ['jobs'],
  ['cli', 'action'],
];
/** The only rooms allowed to import @actions/*. */
const ACTIONS_ROOMS = ['action', 'github'];

type Sources = ReadonlyMap<string, string>; // 'src/answer/ask.ts' → its source text
interface ImportRef {
  file: string;
  line: number;
  spec: string;
  target: string | undefined;
}

const floorOf = new Map(FLOORS.flatMap((rooms, floor) => rooms.map((room) => [room, floor] as const)));

/** The room of a file is its first folder under src/; a top-level file (src/cli.ts) is the room of its name. */
const roomOf = (file: string): string => {
  const parts = file.split('/').slice(1);
  return parts.length > 1 ? parts[0]! : parts[0]!.replace(/\.ts$/, '');
};

/** A string, template or regex literal's text as written (a template's, between its holes), and where it sits. */
interface Literal {
  kind: 'string' | 'template' | 'regex';
  text: string;
  start: number;
  end: number;
}

/** Blanks comments and the insides of string, template and regex literals, keeping quotes, newlines and
 *  offsets, so the import patterns only ever see code and read each specifier back from the original.
 *  The literals blanked are handed to `literals` when given. */
function maskSource(src: string, literals?: Literal[]): string {
  const out = src.split('');
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== '\n') out[k] = ' ';
  };
  const holes: number[] = []; // brace depth inside each `${ … }` we are in
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    const next = src[i + 1];
    if (c === '/' && next === '/') {
      const end = endOf(src, '\n', i);
      blank(i, end);
      i = end;
    } else if (c === '/' && next === '*') {
      const end = Math.min(endOf(src, '*/', i + 2) + 2, src.length);
      blank(i, end);
      i = end;
    } else if (c === '"' || c === "'") {
      const end = endOfLiteral(src, i + 1, c);
      literals?.push({ kind: 'string', text: src.slice(i + 1, end - 1), start: i, end });
      blank(i + 1, end - 1);
      i = end;
    } else if (c === '/' && regexMayStart(out, i)) {
      const end = endOfRegex(src, i + 1);
      literals?.push({ kind: 'regex', text: src.slice(i + 1, end - 1), start: i, end });
      blank(i + 1, end - 1);
      i = end;
    } else if (c === '`' || (c === '}' && holes.at(-1) === 0)) {
      if (c === '}') holes.pop();
      let j = i + 1;
      while (j < src.length && src[j] !== '`' && !(src[j] === '$' && src[j + 1] === '{')) j += src[j] === '\\' ? 2 : 1;
      literals?.push({ kind: 'template', text: src.slice(i + 1, j), start: i, end: src[j] === '$' ? j : j + 1 });
      blank(i + 1, j);
      if (src[j] === '$') {
        holes.push(0);
        i = j + 2;
      } else i = j + 1;
    } else {
      if (holes.length && c === '{') holes[holes.length - 1]!++;
      if (holes.length && c === '}') holes[holes.length - 1]!--;
      i++;
    }
  }
  return out.join('');
}
const endOf = (src: string, token: string, from: number) => {
  const at = src.indexOf(token, from);
  return at < 0 ? src.length : at;
};
function endOfLiteral(src: string, i: number, quote: string): number {
  while (i < src.length && src[i] !== quote && src[i] !== '\n') i += src[i] === '\\' ? 2 : 1;
  return i + 1;
}
function endOfRegex(src: string, i: number): number {
  let inClass = false;
  for (; i < src.length && src[i] !== '\n'; i++) {
    if (src[i] === '\\') i++;
    else if (src[i] === '[') inClass = true;
    else if (src[i] === ']') inClass = false;
    else if (src[i] === '/' && !inClass) return i + 1;
  }
  return i;
}
/** A '/' starts a regex literal (not a division) after an operator, an opening bracket or a keyword like return. */
function regexMayStart(masked: string[], i: number): boolean {
  const before = masked
    .slice(Math.max(0, i - 12), i)
    .join('')
    .trimEnd();
  return before === '' || /[(,=:[!&|?{};+\-*%<>~^]$/.test(before) || /\b(return|typeof|case|in|of|void|throw|yield|await|else)$/.test(before);
}

const IMPORT_PATTERNS = [
  // import x from '…', import type {\n A,\n B } from '…', export { a } from '…', export * as n from '…'
  /(?<![\w$.])(?:import|export)\s+[\w\s{},*$]*?\bfrom\s*(?<q>['"])(?<spec>[^'"\n]*)\k<q>/dg,
  /(?<![\w$.])import\s*(?<q>['"])(?<spec>[^'"\n]*)\k<q>/dg, // side effect: import '…'
  /(?<![\w$.])import\s*\(\s*(?<q>['"])(?<spec>[^'"\n]*)\k<q>/dg, // dynamic: import('…')
];

/** The import specifiers of one source, in source order, with the line of the import or export keyword. */
function importSpecifiers(source: string): { spec: string; line: number }[] {
  const masked = maskSource(source);
  const found = IMPORT_PATTERNS.flatMap((pattern) => [...masked.matchAll(pattern)].map((m) => ({ at: m.index, range: m.indices!.groups!.spec! })));
  return found.sort((a, b) => a.at - b.at).map(({ at, range }) => ({ spec: source.slice(...range), line: source.slice(0, at).split('\n').length }));
}

/** A relative specifier's target among the sources (`.js` specifiers map to `.ts` sources), or undefined. */
function resolveRelative(file: string, spec: string, sources: Sources): string | undefined {
  const joined = path.posix.join(path.posix.dirname(file), spec);
  return [joined.replace(/\.js$/, '.ts'), joined].find((candidate) => sources.has(candidate));
}

function importsOf(sources: Sources): ImportRef[] {
  return [...sources].flatMap(([file, source]) =>
    importSpecifiers(source).map(({ spec, line }) => ({
      file,
      line,
      spec,
      target: spec.startsWith('.') ? resolveRelative(file, spec, sources) : undefined,
    })),
  );
}
const where = (ref: ImportRef) => `${ref.file}:${ref.line} imports '${ref.spec}'`;

function undeclaredRooms(sources: Sources): string[] {
  const rooms = new Map<string, string>();
  for (const file of sources.keys()) if (!rooms.has(roomOf(file))) rooms.set(roomOf(file), file);
  return [...rooms]
    .filter(([room]) => !floorOf.has(room))
    .map(([room, file]) => `undeclared room: '${room}' has .ts files (e.g. ${file}) but is on no floor of FLOORS`);
}

function upwardArrows(sources: Sources): string[] {
  return importsOf(sources).flatMap((ref) => {
    const [from, to] = [roomOf(ref.file), ref.target && roomOf(ref.target)];
    const [fromFloor, toFloor] = [floorOf.get(from), to ? floorOf.get(to) : undefined];
    if (fromFloor === undefined || toFloor === undefined || toFloor <= fromFloor) return [];
    return [`${where(ref)}: arrow up the floors: room '${from}' (floor ${fromFloor}) may not import room '${to}' (floor ${toFloor})`];
  });
}

/** Circles of relative imports (type-only and dynamic included), found by DFS; each listed once, in import order. */
function importCircles(sources: Sources): string[] {
  const graph = new Map<string, string[]>();
  for (const { file, target } of importsOf(sources)) if (target) graph.set(file, [...(graph.get(file) ?? []), target]);
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const circles = new Map<string, string>();
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') {
        const circle = stack.slice(stack.indexOf(next));
        const first = circle.indexOf([...circle].sort()[0]!); // start at the smallest path, so each circle is named once
        const files = [...circle.slice(first), ...circle.slice(0, first)];
        circles.set(files.join(), `import circle: ${[...files, files[0]].join(' → ')}`);
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of [...sources.keys()].sort()) if (!state.has(file)) visit(file);
  return [...circles.values()];
}

function actionsMisuse(sources: Sources): string[] {
  return importsOf(sources)
    .filter((ref) => ref.spec.startsWith('@actions/') && !ACTIONS_ROOMS.includes(roomOf(ref.file)))
    .map((ref) => `${where(ref)}: @actions/* may only be imported in ${ACTIONS_ROOMS.map((r) => `${r}/`).join(' and ')}, not in room '${roomOf(ref.file)}'`);
}

function unresolvedImports(sources: Sources): string[] {
  return importsOf(sources)
    .filter((ref) => ref.spec.startsWith('.') && !ref.target)
    .map((ref) => `${where(ref)}: relative import resolves to no .ts file under src/`);
}

/** Where markdown is read: only src/markdown/ holds the pieces of a reading that every room must share. */
const MARKDOWN_ROOM = 'markdown';

/** Code just before a literal that searches a text with it or compares with it: `x.indexOf(…`, `c === …`. */
const SCANS_WITH = /(?:\.(?:indexOf|lastIndexOf|startsWith|endsWith|includes|split)\(|[!=]==)\s*$/;
const COMPARED_AFTER = /^\s*[!=]==/;
/** Code just before a string or template that is the source of an expression. */
const REGEXP_SOURCE = /\bRegExp\(\s*$/;

/** How a literal is used: as an expression (a regex literal or a RegExp source), to scan a text, or otherwise. */
type LiteralUse = 'expression' | 'scan' | 'other';

/** The pieces of reading markdown that belong in src/markdown/, each told by a literal and how it is used. */
const MARKDOWN_READINGS: ReadonlyArray<{ what: string; finds: (text: string, use: LiteralUse) => boolean }> = [
  {
    // `indexOf('\n---\n')`, `line.trim() === '---'`, `/^---\r?\n/`; writing a `---` line is no scan.
    what: 'a frontmatter delimiter scan',
    finds: (text, use) => (use === 'expression' ? /(?:\^|\\n)(?:---|-\{3)/.test(text) : use === 'scan' && /^(?:\\r)?(?:\\n)?---(?:\\r)?(?:\\n)?$/.test(text)),
  },
  {
    // `/`+/g`, `/`[^`\n]+`/`, `/```[\s\S]*?```/`, `(\`{3,})` in a RegExp source, `text[i] === '`'`.
    what: 'a backtick-run scanner',
    finds: (text, use) => (use === 'expression' ? /\\?`(?:\+|\{\d)|\[\^[^\]]*`|```/.test(text) : use === 'scan' && /^`+$/.test(text)),
  },
  {
    // `/^#{1,6}\s/`, `/^\s{0,3}#/`, `/^#+/`; a `#` tag (`/^#/`) or a YAML comment (`/^\s*#/`) is no heading.
    what: 'a heading expression',
    finds: (text, use) => use === 'expression' && /#\{\d|\{0,3\}\(?#|\^\(?#[+*]/.test(text),
  },
];

/** Files outside src/markdown/ that read markdown with a scanner of their own: each literal that gives one away. */
function markdownReadersOutside(sources: Sources): string[] {
  return [...sources]
    .filter(([file]) => roomOf(file) !== MARKDOWN_ROOM)
    .flatMap(([file, source]) => {
      const literals: Literal[] = [];
      const masked = maskSource(source, literals);
      return literals.flatMap((literal) => {
        const before = masked.slice(Math.max(0, literal.start - 40), literal.start);
        const use: LiteralUse =
          literal.kind === 'regex' || REGEXP_SOURCE.test(before)
            ? 'expression'
            : SCANS_WITH.test(before) || COMPARED_AFTER.test(masked.slice(literal.end, literal.end + 8))
              ? 'scan'
              : 'other';
        const line = source.slice(0, literal.start).split('\n').length;
        const written = source.slice(literal.start, literal.end).slice(0, 60);
        return MARKDOWN_READINGS.filter((reading) => reading.finds(literal.text, use)).map(
          (reading) => `${file}:${line}: ${reading.what} of its own (${written}): read markdown through src/${MARKDOWN_ROOM}/`,
        );
      });
    });
}

/** The .ts files under a top-level folder (src/, eval/), keyed by their path from the project root. */
function readSources(folder = 'src'): Sources {
  const root = fileURLToPath(new URL(`../${folder}`, import.meta.url));
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  return new Map(
    files
      .map((f) => f.split(path.sep).join('/'))
      .sort()
      .map((f) => [`${folder}/${f}`, readFileSync(path.join(root, f), 'utf8')]),
  );
}

describe('the scanner itself', () => {
  const specs = (source: string) => importSpecifiers(source).map((s) => s.spec);

  it('reads a multi-line type import, a re-export, a side-effect import and a dynamic import', () => {
    const source = [
      "import type {\n  Alpha,\n  Beta,\n} from './types.js';",
      'import def, { a as b } from "./both.js";',
      "export { gamma, type Delta } from './gamma.js';",
      "export * as ns from '../ns.js';",
      "import './side-effect.js';",
      "const lazy = () => import( './lazy.js' );",
    ].join('\n');
    expect(specs(source)).toEqual(['./types.js', './both.js', './gamma.js', '../ns.js', './side-effect.js', './lazy.js']);
    expect(importSpecifiers(source)[0]).toEqual({ spec: './types.js', line: 1 });
    expect(importSpecifiers(source)[5]).toEqual({ spec: './lazy.js', line: 9 });
  });

  it('ignores imports in comments, strings, templates and regexes', () => {
    const source = [
      "// import { gone } from './line-comment.js';",
      "/* import './block-comment.js';\n   export * from './block-comment-2.js'; */",
      'const s = "import x from \'./in-a-string.js\'";',
      "const t = `import('./in-a-template.js') ${n + 1} export * from './after-hole.js'`;",
      'const r = /[\'"]/g; const half = total / 2; // a quote in a regex, then a division',
      "import { kept } from './kept.js';",
    ].join('\n');
    expect(specs(source)).toEqual(['./kept.js']);
  });

  it('finds an arrow up the floors, but lets a room import its floor, lower floors and itself', () => {
    const sources = new Map([
      ['src/wiki/open.ts', "import { rank } from '../ladder/ladder.js';\nimport { load } from '../config/config.js';"],
      ['src/ladder/ladder.ts', "import { search } from '../web/search.js';\nimport { open } from '../wiki/open.js';"],
      ['src/web/search.ts', "import { rank } from '../ladder/ladder.js';"],
      ['src/config/config.ts', ''],
      ['src/cli.ts', "import { ask } from './answer/model/chat.js';"],
      ['src/answer/model/chat.ts', "import { run } from '../../cli.js';"],
    ]);
    expect(upwardArrows(sources)).toEqual([
      "src/wiki/open.ts:1 imports '../ladder/ladder.js': arrow up the floors: room 'wiki' (floor 2) may not import room 'ladder' (floor 3)",
      "src/answer/model/chat.ts:1 imports '../../cli.js': arrow up the floors: room 'answer' (floor 4) may not import room 'cli' (floor 8)",
    ]);
  });

  it('finds a 3-file circle and lists its files in order', () => {
    const sources = new Map([
      ['src/wiki/b.ts', "import type { C } from './c.js';"],
      ['src/wiki/a.ts', "import { b } from './b.js';"],
      ['src/wiki/c.ts', "export { a } from './a.js';"],
      ['src/wiki/d.ts', "import { a } from './a.js';"],
    ]);
    expect(importCircles(sources)).toEqual(['import circle: src/wiki/a.ts → src/wiki/b.ts → src/wiki/c.ts → src/wiki/a.ts']);
  });

  it('finds @actions in a forbidden room, undeclared rooms and unresolved relative imports', () => {
    const sources = new Map([
      ['src/report/format.ts', "const core = await import('@actions/core');"],
      ['src/github/octokit.ts', "import * as github from '@actions/github';"],
      ['src/action.ts', "import * as core from '@actions/core';\nimport { run } from './github/octokit.js';"],
      ['src/misc/util.ts', "import { gone } from './gone.js';"],
    ]);
    expect(actionsMisuse(sources)).toEqual([
      "src/report/format.ts:1 imports '@actions/core': @actions/* may only be imported in action/ and github/, not in room 'report'",
    ]);
    expect(undeclaredRooms(sources)).toEqual(["undeclared room: 'misc' has .ts files (e.g. src/misc/util.ts) but is on no floor of FLOORS"]);
    expect(unresolvedImports(sources)).toEqual(["src/misc/util.ts:1 imports './gone.js': relative import resolves to no .ts file under src/"]);
  });
});

describe('the markdown check', () => {
  const found = (source: string) => markdownReadersOutside(new Map([['src/wiki/page.ts', source]])).map((f) => f.replace(/ \(.*$/, ''));

  it('finds a frontmatter delimiter scan, a backtick-run scanner and a heading expression outside src/markdown/', () => {
    const source = [
      "const close = text.indexOf('\\n---\\n');",
      "if (lines[0]?.trim() !== '---') return 0;",
      'const body = text.replace(/^---\\r?\\n[\\s\\S]*?\\n---\\n/, "");',
      'const CODE = /`[^`\\n]+`/g;',
      'const RUN = new RegExp(`(\\`+)${rest}`);',
      "while (text[i] === '`') i++;",
      'const HEADING = /^#{1,6}[ \\t]+(.+)$/gm;',
      'const INDENTED = /^\\s{0,3}#/;',
    ].join('\n');
    expect(found(source)).toEqual([
      'src/wiki/page.ts:1: a frontmatter delimiter scan of its own',
      'src/wiki/page.ts:2: a frontmatter delimiter scan of its own',
      'src/wiki/page.ts:3: a frontmatter delimiter scan of its own',
      'src/wiki/page.ts:4: a backtick-run scanner of its own',
      'src/wiki/page.ts:5: a backtick-run scanner of its own',
      'src/wiki/page.ts:6: a backtick-run scanner of its own',
      'src/wiki/page.ts:7: a heading expression of its own',
      'src/wiki/page.ts:8: a heading expression of its own',
    ]);
  });

  it('lets writing markdown, tags, YAML comments, anchors and comments be, and src/markdown/ read it', () => {
    const source = [
      "const page = ['---', 'title: x', '---', body].join('\\n');",
      'const pending = `---\\n${fields}\\n---\\n\\n${body}`;',
      "const tag = t.replace(/^#/, ''); const comment = /^\\s*#[^\\n]/; const [page] = target.split('#');",
      "const code = `\\`${term.replaceAll('`', \"'\")}\\``; const rule = '|---|---|';",
      "// text.indexOf('\\n---\\n') and /^#{1,6}/ in a comment",
    ].join('\n');
    expect(found(source)).toEqual([]);
    expect(markdownReadersOutside(new Map([['src/markdown/body.ts', "const close = text.indexOf('\\n---\\n');"]]))).toEqual([]);
  });
});

describe('the architecture of src/', () => {
  const sources = readSources();

  it('declares each room on exactly one floor', () => {
    expect(FLOORS.flat().length).toBe(floorOf.size);
  });
  it.each([
    ['has every folder of src/ declared as a room', undeclaredRooms],
    ['has no arrows up the floors', upwardArrows],
    ['has no import circles', importCircles],
    ['imports @actions/* only in action/ and github/', actionsMisuse],
    ['has relative imports that all resolve', unresolvedImports],
  ] as const)('%s', (_, rule) => {
    expect(rule(sources)).toEqual([]);
  });
  it('reads markdown only through src/markdown/, in src/ and eval/', () => {
    expect(markdownReadersOutside(new Map([...sources, ...readSources('eval')]))).toEqual([]);
  });
});
