// The guards against workflow commands in gate-check's output, checked against a
// re-implementation of the GitHub runner's own parsers (test/helpers/actions-runner.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeLegacyCommands, guardLineStart, legacyCommandGuard, parsesLogCommands } from '../../lib/text/workflow-commands.js';
import { runnerCommands } from '../helpers/actions-runner.js';

const LEADING = ['', ' ', '\t', '\u00a0', '\u2003', '\u3000', '\u0085', '\u202f', '\ufeff', '\u180e', ' \u00a0 '];
const COMMANDS = ['::error::x', '::stop-commands::tok', '::set-output name=a::b', '::ERROR file=a,line=1::x', '::add-mask::s'];

describe('the runner parser used by these tests', () => {
  it('reads what GitHub reads: modern commands at a line start after whitespace, legacy ones anywhere', () => {
    expect(runnerCommands('::error file=a%2Cb,line=3::m%0An').map((c) => [c.command, c.properties, c.data])).toEqual([['error', { file: 'a,b', line: '3' }, 'm\nn']]);
    expect(runnerCommands('  \u00a0::warning::w')).toHaveLength(1);
    expect(runnerCommands('x ::error::not at the start')).toHaveLength(0);
    expect(runnerCommands('text ##[error]legacy')[0]).toMatchObject({ command: 'error', data: 'legacy', form: 'legacy' });
    expect(runnerCommands('a\rb::x\r::error::after CR')).toHaveLength(1);
    expect(runnerCommands('::stop-commands::t1\n::error::silenced\n::t1::\n::error::heard').map((c) => c.data)).toEqual(['t1', '', 'heard']);
    expect(runnerCommands('::nosuch::x\n##[nosuch]y')).toHaveLength(0);
  });
});

describe('guardLineStart', () => {
  it('puts a backslash before any text that would start a line with "::"', () => {
    for (const lead of LEADING) {
      for (const cmd of COMMANDS) {
        const text = lead + cmd;
        // U+FEFF and U+180E are not whitespace to today's .NET; older runtimes counted them.
        if (!/[\ufeff\u180e]/.test(lead)) expect(runnerCommands(text), JSON.stringify(text)).toHaveLength(1);
        const guarded = guardLineStart(text);
        expect(guarded).toBe(`\\${text}`);
        expect(runnerCommands(guarded + '  rest of the line')).toHaveLength(0);
      }
    }
  });

  it('leaves everything else alone', () => {
    for (const t of ['GATES:G1', 'a::b', ':x', '\\::x', 'x ::error::y', '']) expect(guardLineStart(t)).toBe(t);
  });
});

describe('escapeLegacyCommands', () => {
  it('no legacy command survives, anywhere in a line', () => {
    for (const t of ['##[error]x', 'a ##[stop-commands]tok b', '##[set-output name=x]y', '###[error]x', '##vso[task.setvariable variable=x]y', '##[ERROR]x', '####[[error]x']) {
      const escaped = escapeLegacyCommands(t);
      expect(runnerCommands(escaped), escaped).toHaveLength(0);
      expect(escaped).not.toMatch(/##[A-Za-z]*\[/);
    }
    expect(escapeLegacyCommands('a ## b #[ c')).toBe('a ## b #[ c');
  });

  it('is lossless inside JSON: the document parses back to the same data', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: fc.constantFrom('#', '[', 'v', 's', 'o', 'e', 'r', ']', 'a', ' ', '"', '\\') }), (value, s) => {
        const doc = { value, s, t: `##[error]${s}` };
        const text = escapeLegacyCommands(JSON.stringify(doc, null, 2));
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(doc)));
        expect(runnerCommands(text)).toHaveLength(0);
      }),
      { numRuns: 500 },
    );
  });

  it('legacyCommandGuard escapes a command split across writes, changing only the new text', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('#', '[', 'e', 'r', 'o', ']', 'x', '\n', 'v', 's') }), fc.array(fc.nat(), { maxLength: 6 }), (text, cuts) => {
        const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
        let written = '';
        const guard = legacyCommandGuard((t) => (written += t));
        let at = 0;
        for (const p of [...points, text.length]) {
          guard(text.slice(at, p));
          at = p;
        }
        expect(written).toBe(escapeLegacyCommands(text));
        expect(written).not.toMatch(/##[A-Za-z]{0,16}\[/);
      }),
      { numRuns: 500 },
    );
  });

  it('is on for GitHub Actions and Azure Pipelines only', () => {
    expect(parsesLogCommands({ GITHUB_ACTIONS: 'true' })).toBe(true);
    expect(parsesLogCommands({ TF_BUILD: 'True' })).toBe(true);
    expect(parsesLogCommands({})).toBe(false);
    expect(parsesLogCommands({ GITHUB_ACTIONS: 'false', TF_BUILD: '' })).toBe(false);
  });
});
