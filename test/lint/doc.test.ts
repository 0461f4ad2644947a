// references/lint.md runs as written: every console session of the page, in a repository
// holding the files its section shows, prints exactly what the page shows. Every rule has
// a section with an example that fires it and a fixed example that is clean.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../lib/lint/types.js';
import { normalize, runSession, sessions } from './doc-examples.js';

const PAGE = readFileSync(resolve(import.meta.dirname, '../../references/lint.md'), 'utf8');
const all = sessions(PAGE);

describe('references/lint.md', () => {
  it('has a section per rule, each with a session that reports the rule and one that is clean', () => {
    for (const rule of RULES) {
      const mine = all.filter((s) => s.section === rule);
      expect(mine.length, rule).toBeGreaterThanOrEqual(2);
      const shown = mine.flatMap((s) => s.steps.flatMap((st) => st.expected));
      expect(shown.some((l) => l.includes(` [${rule}] `)), rule).toBe(true);
      expect(shown.some((l) => /^lint: no findings in \d+ gates?$/.test(l)), rule).toBe(true);
    }
  });

  for (const [i, session] of all.entries()) {
    it(`${session.section} #${i}: ${session.steps.map((s) => s.command).join('; ')}`, () => {
      const actual = runSession(session);
      session.steps.forEach((step, j) => expect(actual[j]!.join('\n'), step.command).toBe(normalize(step.expected.join('\n'), '/repo')));
    });
  }
});
