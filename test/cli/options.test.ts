// The command line through a real subprocess: every misuse exits 2 with one clear line.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { commanderParse } from '../../lib/cli/commander-args.js';
import { fastParse } from '../../lib/cli/fast-args.js';
import { OPTIONS } from '../../lib/cli/option-table.js';
import { optionsFrom, parseCommandLine } from '../../lib/cli/options.js';
import { runCli, sandbox, writeFiles } from '../helpers/cli.js';

const LEDGER = '- [ ] G1: t\n  CHECK: echo hi\n  EXPECT: hi\n';

function usage(args: string[]) {
  const s = sandbox();
  writeFiles(s.repo, { 'GATES.md': LEDGER });
  return runCli(args, { cwd: s.repo, env: s.env });
}

function expectUsageError(args: string[], pattern: RegExp) {
  const r = usage(args);
  expect(r.code, args.join(' ')).toBe(2);
  expect(r.stdout).toBe('');
  const lines = r.stderr.trim().split('\n');
  expect(lines[0]).toMatch(pattern);
  expect(lines.length).toBeLessThanOrEqual(2);
  expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
}

describe('command line', () => {
  it('refuses unknown options with a hint', () => {
    expectUsageError(['--status', '--frobnicate'], /unknown option '--frobnicate'/);
    expect(usage(['--statsu']).stderr).toMatch(/Did you mean --status\?/);
  });

  it('refuses duplicate options', () => {
    expectUsageError(['--status', '--status'], /--status given 2 times/);
    expectUsageError(['--status', '--jobs', '2', '--jobs', '3'], /--jobs given 2 times/);
  });

  it('refuses --status with --approve or --reverify', () => {
    expectUsageError(['--status', '--approve'], /--status never approves/);
    expectUsageError(['--status', '--reverify'], /--status never runs checks/);
  });

  it('validates --jobs as an integer 1..64', () => {
    for (const v of ['0', '65', 'abc', '1.5', '-1', '', '1e1']) expectUsageError(['--status', `--jobs=${v}`], /--jobs/);
    expect(usage(['--status', '--jobs', '64']).code).toBe(1);
  });

  it('validates --timeout as an integer 1..86400', () => {
    for (const v of ['0', '86401', 'x', '2.5']) expectUsageError(['--status', `--timeout=${v}`], /--timeout/);
    expect(usage(['--status', '--timeout', '86400']).code).toBe(1);
  });

  it('validates --shard I/N', () => {
    for (const v of ['0/2', '3/2', '1/0', '1', 'a/b', '1/2/3']) expectUsageError(['--status', `--shard=${v}`], /--shard/);
    expect(usage(['--status', '--shard', '2/2']).code).toBe(1);
  });

  it('refuses --strict without --status, --only-stale without --reverify, --assert-clean with jobs', () => {
    expectUsageError(['--strict'], /--strict applies to --status/);
    expectUsageError(['--only-stale'], /--only-stale applies to --reverify/);
    expectUsageError(['--assert-clean', '--jobs', '2'], /--assert-clean needs --jobs 1/);
  });

  it('refuses an option that needs a value without one', () => {
    expectUsageError(['--status', '--root'], /argument missing|--root/);
    expectUsageError(['--status', '--shell', ''], /--shell needs a non-empty value/);
  });

  it('prints complete help and exits 0', () => {
    const r = usage(['--help']);
    expect(r.code).toBe(0);
    for (const flag of ['--status', '--approve', '--reverify', '--strict', '--jobs', '--timeout', '--shell', '--cwd', '--root', '--json', '--junit', '--shard', '--fail-fast', '--scope']) {
      expect(r.stdout).toContain(flag);
    }
    expect(r.stdout).toMatch(/Exit codes:/);
  });

  it('prints the version', () => {
    const r = usage(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('parseCommandLine', () => {
  const opts = async (argv: string[]) => {
    const p = await parseCommandLine(argv);
    if (p.kind !== 'run') throw new Error('expected run');
    return p.options;
  };

  it('treats --approve ID@HEX values as pins and other values as ledger files', async () => {
    const o = await opts(['--approve', 'GATES:G1@ABCDEF0123ABCDEF0123ABCDEF012345', '--approve=G2@12345678123456781234567812345678,G3@87654321876543218765432187654321', 'x.md', '--approve', 'other.md']);
    expect(o.approve).toBe(true);
    expect(o.pins).toEqual([
      { id: 'GATES:G1', prefix: 'abcdef0123abcdef0123abcdef012345' },
      { id: 'G2', prefix: '12345678123456781234567812345678' },
      { id: 'G3', prefix: '87654321876543218765432187654321' },
    ]);
    expect(o.files).toEqual(['x.md', 'other.md']);
  });

  it('refuses a pin with fewer than 32 hex digits', async () => {
    await expect(opts(['--approve', 'G1@abc'])).rejects.toThrow(/32 to 64 hex/);
    await expect(opts(['--approve', `G1@${'a'.repeat(31)}`])).rejects.toThrow(/32 to 64 hex/);
  });

  it('honours files in any position, including after --', async () => {
    expect((await opts(['a.md', '--status', 'b.md', '--', '--c.md'])).files).toEqual(['a.md', 'b.md', '--c.md']);
  });
});

describe('the fast parser agrees with commander (one option table drives both)', () => {
  const words = ['--status', '--approve', '--reverify', '--only-stale', '--strict', '--jobs', '--timeout', '--shell', '--cwd', '--root', '--scope', '--json', '--junit', '--shard', '--fail-fast', '--assert-clean', '--', '-', '-x', '--nope', '--jobs=2', '--approve=G1@abcdef12', '--approve=G1@abcdef0123abcdef0123abcdef012345', '--root=', 'a.md', 'G1@abcdef12', 'G1@abcdef0123abcdef0123abcdef012345', '2', '1/2', '', '--status=1', '-h', '--help', '-V'];
  const outcome = (f: () => unknown) => {
    try {
      return { ok: f() };
    } catch (e) {
      return { error: (e as Error).message };
    }
  };

  it('every command line the fast parser accepts, commander reads the same way', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...words), { maxLength: 7 }), (argv) => {
        const fast = fastParse(argv);
        if (fast === null) return; // declined: commander decides alone
        const slow = commanderParse(argv, '0.0.0');
        expect(slow.kind).toBe('args');
        if (slow.kind !== 'args') return;
        expect(Object.fromEntries(fast.occurrences)).toEqual(Object.fromEntries(slow.raw.occurrences));
        expect(fast.args).toEqual(slow.raw.args);
        expect(outcome(() => optionsFrom(fast))).toEqual(outcome(() => optionsFrom(slow.raw)));
      }),
      { numRuns: 3000 },
    );
  });

  it('declines help, version, short and unknown options, and values that start with a dash', () => {
    for (const argv of [['--help'], ['-h'], ['-V'], ['--version'], ['--nope'], ['-x'], ['--root'], ['--root', '--status'], ['--jobs='], ['--status=1']]) {
      expect(fastParse(argv), argv.join(' ')).toBeNull();
    }
  });

  it('the option table is what commander knows', () => {
    const help = commanderParse(['--help'], '0.0.0');
    expect(help.kind).toBe('done');
    for (const o of OPTIONS) expect(help.kind === 'done' && help.output).toContain(o.flag);
  });
});
