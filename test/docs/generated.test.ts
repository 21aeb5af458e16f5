// The generated parts of the docs (action.yml's inputs and outputs, the configuration reference,
// the CLI reference, the embedded workflow files) are what `npm run docs` writes today, and every
// twin the configuration reference names is real.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { configKeys, DEFAULT_CONFIG } from '../../src/config/config.js';
import { buildProgram } from '../../src/cli/program.js';
import { processIo } from '../../src/cli/context.js';
import { readInputs } from '../../src/action/inputs.js';
import { resolveSettings } from '../../src/config/settings.js';
import { generatedParts, regenerate, StaleDocsError, staleDocs } from '../../scripts/docs-sections.js';
import { PROJECT_ROOT } from '../helpers/cli.js';

describe('npm run docs', () => {
  it('has nothing to rewrite: every generated part is current', () => {
    expect(
      staleDocs(PROJECT_ROOT).map((s) => s.file),
      'generated docs are stale: run npm run docs and commit the result',
    ).toEqual([]);
  });

  it('embeds the copy-paste workflows verbatim', () => {
    const readme = readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
    expect(readme).toContain(`\`\`\`yaml\n${readFileSync(path.join(PROJECT_ROOT, 'examples/workflows/answer.yml'), 'utf8')}\`\`\``);
    const action = readFileSync(path.join(PROJECT_ROOT, 'docs/action.md'), 'utf8');
    expect(action).toContain(`\`\`\`yaml\n${readFileSync(path.join(PROJECT_ROOT, 'examples/workflows/wiki-steward.yml'), 'utf8')}\`\`\``);
  });

  it('lists every input and output of action.yml, and every key of the config reader', () => {
    const manifest = yaml.load(readFileSync(path.join(PROJECT_ROOT, 'action.yml'), 'utf8')) as Record<string, Record<string, unknown>>;
    const readme = readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
    for (const name of [...Object.keys(manifest.inputs!), ...Object.keys(manifest.outputs!)]) expect(readme).toContain(`| \`${name}\` |`);
    const reference = readFileSync(path.join(PROJECT_ROOT, 'docs/configuration.md'), 'utf8');
    for (const { name, spec } of configKeys()) if (!spec.type.startsWith('never')) expect(reference).toContain(`| \`${name}\` |`);
  });

  it('names a missing marker instead of writing somewhere else', () => {
    expect(() => regenerate('README.md', '# no markers\n', generatedParts(PROJECT_ROOT)['README.md']!)).toThrow(StaleDocsError);
    expect(() => regenerate('README.md', '# no markers\n', generatedParts(PROJECT_ROOT)['README.md']!)).toThrow(/README.md: no generated part/);
  });
});

describe("the configuration reference's twins", () => {
  const twins = configKeys().filter(({ spec }) => spec.flag || spec.input);
  const manifest = yaml.load(readFileSync(path.join(PROJECT_ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, unknown> };
  const program = buildProgram(processIo(), () => {});
  const flags = new Set(program.commands.flatMap((c) => c.options.map((o) => o.long)));

  it.each(twins.map(({ name, spec }) => [name, spec.flag ?? '', spec.input ?? '']))('%s: flag %s and input %s exist', (_name, flag, input) => {
    if (flag) expect(flags).toContain(flag);
    if (input) expect(Object.keys(manifest.inputs)).toContain(input);
  });

  // A value other than the default for each input that is a config key's twin.
  const OTHER: Record<string, string> = {
    'wiki-path': 'handbook',
    'trigger-label': 'ask-the-wiki',
    'capture-mode': 'pending',
    'capture-pull-requests': 'false',
    command: '/ask',
    'min-permission': 'admin',
    refusal: 'silent',
    'steward-logins': 'docs-bot',
    llm: 'openai',
    'llm-model': 'gpt-x',
    'llm-base-url': 'http://models.test/v1',
    'copilot-cli-path': '/opt/copilot',
    web: 'brave',
    'web-base-url': 'http://search.test',
  };
  it.each(twins.filter(({ spec }) => spec.input).map(({ name, spec }) => [spec.input!, name]))('input %s sets %s', (input, name) => {
    expect(OTHER, `no sample value for input ${input}`).toHaveProperty([input]);
    const inputs = readInputs({ input: (n: string) => (n === input ? OTHER[input]! : ''), env: {} } as never);
    const camel = (p: string) => p.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
    const read = (config: unknown) => name.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[camel(part)], config);
    // The wiki root is the one input the workspace resolves, not the settings.
    const after = name === 'wiki' ? inputs.wikiPath : read(resolveSettings(DEFAULT_CONFIG, inputs.settings));
    expect(after, `input ${input}`).not.toEqual(read(DEFAULT_CONFIG));
  });
});
