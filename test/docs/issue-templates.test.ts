// The issue templates: valid issue forms; the question template applies the trigger label and
// says who can ask; and what GitHub writes from the form is read as the asker's question, without
// the form's own labels or placeholders.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { workForEvent } from '../../src/action/event.js';
import { DEFAULT_CONFIG } from '../../src/config/config.js';
import { withoutEmptyFormFields } from '../../src/markdown/issue-forms.js';
import { PROJECT_ROOT } from '../helpers/cli.js';

const DIR = path.join(PROJECT_ROOT, '.github/ISSUE_TEMPLATE');
interface Field {
  type: string;
  id?: string;
  attributes: { label?: string; value?: string };
}
interface Form {
  name: string;
  description: string;
  labels?: string[];
  body: Field[];
}
const form = (file: string) => yaml.load(readFileSync(path.join(DIR, file), 'utf8')) as Form;
const forms = readdirSync(DIR).filter((f) => f !== 'config.yml');

describe('the issue templates', () => {
  it('are a question form and a bug form, and a config that points vulnerability reports away from issues', () => {
    expect(forms.sort()).toEqual(['bug.yml', 'question.yml']);
    expect(readFileSync(path.join(DIR, 'config.yml'), 'utf8')).toMatch(/security\/advisories\/new/);
  });

  it.each(forms)('%s is an issue form GitHub accepts: name, description, a body with a field that is not markdown, ids unique', (file) => {
    const f = form(file);
    expect(typeof f.name).toBe('string');
    expect(typeof f.description).toBe('string');
    const fields = f.body.filter((b) => b.type !== 'markdown');
    expect(fields.length).toBeGreaterThan(0);
    for (const b of f.body) expect(['markdown', 'textarea', 'input', 'dropdown', 'checkboxes']).toContain(b.type);
    const ids = fields.map((b) => b.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const b of fields) expect(b.attributes.label, `${file}: field ${b.id}`).toBeTruthy();
  });

  it('"Question for the wiki" applies the trigger label and says who can ask, and how a maintainer asks for anyone else', () => {
    const f = form('question.yml');
    expect(f.name).toBe('Question for the wiki');
    expect(f.labels).toEqual([DEFAULT_CONFIG.labels.trigger]);
    const text = f.body.map((b) => b.attributes.value ?? '').join('\n');
    expect(text).toMatch(/at least triage access/);
    expect(text).toMatch(/a maintainer has it answered by adding the `question` label/);
  });

  it('a question asked through the form is its title, with its context when given: never the form labels or "_No response_"', () => {
    const asked = (body: string) => {
      const work = workForEvent(
        'issues',
        {
          action: 'opened',
          issue: { number: 4, title: 'How do we rotate the signing key?', body, user: { login: 'alice', type: 'User' }, labels: [{ name: 'question' }] },
        } as never,
        { triggerLabel: 'question', command: '/wiki', discussionCategories: [] },
      );
      return work.kind === 'answer' ? work.question.text : undefined;
    };
    expect(asked('### Context\n\n_No response_')).toBe('How do we rotate the signing key?');
    expect(asked('### Context\n\nThe staging one.')).toBe('How do we rotate the signing key?\n\n### Context\n\nThe staging one.');
    expect(withoutEmptyFormFields('### A\n\n_No response_\n\n### B\n\nyes\n\n### C\n\n_No response_\n')).toBe('### B\n\nyes\n\n');
  });
});
