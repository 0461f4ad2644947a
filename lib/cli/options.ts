// The root command line (DESIGN §4): commander 14 parses; every value is validated here, and
// every misuse (unknown, duplicate, conflicting or malformed option) is one UsageError.
import { Command, CommanderError, Option } from 'commander';
import { UsageError } from '../errors.js';

declare const __VERSION__: string;
export const VERSION = typeof __VERSION__ === 'string' ? __VERSION__ : '0.0.0-dev';

export interface ApprovalPin {
  /** As typed: a qualified (STEM:ID) or plain gate id. */
  id: string;
  /** Lower-case hex, 8 to 64 digits: a prefix of the oracle signature that was displayed. */
  prefix: string;
}

export interface Shard {
  index: number;
  count: number;
}

export interface RunOptions {
  status: boolean;
  approve: boolean;
  pins: ApprovalPin[];
  reverify: boolean;
  onlyStale: boolean;
  strict: boolean;
  jobs: number;
  timeoutSeconds: number;
  shell: string | undefined;
  cwd: string | undefined;
  root: string | undefined;
  scope: string | undefined;
  json: boolean;
  junit: string | undefined;
  shard: Shard | undefined;
  failFast: boolean;
  assertClean: boolean;
  files: string[];
}

export type ParsedCommandLine =
  | { kind: 'done'; output: string }
  | { kind: 'run'; options: RunOptions }
  | { kind: 'subcommand'; name: string; args: string[] };

export const DEFAULT_JOBS = 1;
export const DEFAULT_TIMEOUT_SECONDS = 120;
const PIN = /^([A-Za-z0-9][A-Za-z0-9._:-]*)@([0-9a-fA-F]{8,64})$/;
const PIN_LIKE = /^[A-Za-z0-9][A-Za-z0-9._:-]*@/;

/** Subcommands are dispatched by name (the first argument) before commander sees the root options. */
export const SUBCOMMANDS: ReadonlySet<string> = new Set(['init', 'lint', 'approvals', 'history', 'merge', 'hook']);

const EXIT_CODES_HELP = `
Commands (gate-check <command> --help for each):
  init                 write a starter GATES.md
  lint [file...]       find gates that cannot fail, weak expectations, undeclared scripts
  approvals list|revoke|prune   inspect and withdraw approvals
  history [ID]         recent attempts of a gate, labelled flaky or stuck
  merge report...      combine --json reports of --shard runs into one verdict
  hook claude-stop|install      the Claude Code Stop hook

Exit codes:
  0    every gate met
  1    something unmet, not run, awaiting approval, or handed off
  2    usage, parse or infrastructure failure (unsafe store, lock timeout, unsafe write)
  3    lease conflict (reserved for the OWNS: lease protocol)
  130  interrupted (every running check's process group is killed first)

Without files: GATES.md and gates/*.md under --root, or .gate-check/<scope>/*.md with --scope.
Nothing in a ledger runs until a person approved that exact oracle (see SECURITY.md).
`;

function buildProgram(write: (s: string) => void): Command {
  const program = new Command('gate-check')
    .description('Fail-closed, approval-bound checker for completion gates written as code.')
    .argument('[file...]', 'ledger files (default: GATES.md and gates/*.md under --root)')
    .option('--status', 'report only: never execute, approve, lock or write anything')
    .addOption(
      new Option('--approve [pin]', 'approve pending oracles, then run them; ID@HEX (8+ hex) approves only the oracle shown with that signature prefix (repeatable, comma-separated)'),
    )
    .option('--reverify', 're-run every runnable gate, including met ones; demote failures')
    .option('--only-stale', 'with --reverify: re-run only gates whose evidence no longer matches their oracle or dependencies')
    .option('--strict', 'with --status: count claimed, unverified, mismatched or stale evidence as unmet')
    .option('--jobs <n>', `concurrent checks, 1..64 (default ${DEFAULT_JOBS}); reports keep ledger order`)
    .option('--timeout <seconds>', `per-check timeout, 1..86400 (default ${DEFAULT_TIMEOUT_SECONDS})`)
    .option('--shell <path>', 'shell for CHECK (default: $GATE_CHECK_SHELL, then /bin/sh)')
    .option('--cwd <dir>', 'default working directory for CHECK (default: the ledger folder for named ledgers, else --root)')
    .option('--root <dir>', 'repository root (default: the current directory)')
    .option('--scope <id>', 'use the ledgers of .gate-check/<id>/ instead of GATES.md and gates/')
    .option('--json', 'print one JSON document (schema: references/report.schema.json)')
    .option('--junit <file>', 'also write a JUnit XML report')
    .option('--shard <i/n>', 'run only the i-th of n deterministic shares of the runnable gates')
    .option('--fail-fast', 'start no new check after the first failure')
    .option('--assert-clean', 'fail a check that changes files in the repository (needs --jobs 1)')
    .version(VERSION, '-V, --version')
    .helpOption('-h, --help', 'show this help')
    .addHelpText('after', EXIT_CODES_HELP)
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ writeOut: write, writeErr: () => {}, outputError: () => {} });
  return program;
}

function parseIntStrict(flag: string, raw: string, min: number, max: number): number {
  if (!/^[0-9]{1,9}$/.test(raw)) throw new UsageError(`${flag} takes a whole number from ${min} to ${max}, not "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new UsageError(`${flag} takes a whole number from ${min} to ${max}, not ${n}`);
  return n;
}

function parseShard(raw: string): Shard {
  const m = /^([0-9]{1,6})\/([0-9]{1,6})$/.exec(raw);
  if (!m) throw new UsageError(`--shard takes I/N (for example 2/4), not "${raw}"`);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || count > 1000 || index < 1 || index > count) {
    throw new UsageError(`--shard ${raw}: need 1 <= I <= N <= 1000`);
  }
  return { index, count };
}

function nonEmpty(flag: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (raw === '' || raw.includes('\u0000')) throw new UsageError(`${flag} needs a non-empty value`);
  return raw;
}

/** Splits --approve values into pins and ledger files ("a value not of that form is a ledger file"). */
function classifyApproveValue(value: string, pins: ApprovalPin[], files: string[]): void {
  const parts = value.split(',');
  if (parts.every((p) => PIN.test(p))) {
    for (const p of parts) {
      const m = PIN.exec(p)!;
      pins.push({ id: m[1]!, prefix: m[2]!.toLowerCase() });
    }
    return;
  }
  if (PIN_LIKE.test(value)) {
    throw new UsageError(`--approve ${value}: a pin is ID@HEX with 8 to 64 hex digits of the signature shown by a plain run`);
  }
  files.push(value);
}

export function parseCommandLine(argv: readonly string[]): ParsedCommandLine {
  const first = argv[0];
  if (first !== undefined && SUBCOMMANDS.has(first)) return { kind: 'subcommand', name: first, args: argv.slice(1) };

  let output = '';
  const program = buildProgram((s) => {
    output += s;
  });
  const seen = new Map<string, number>();
  const approveValues: (string | true)[] = [];
  for (const option of program.options) {
    const name = option.attributeName();
    program.on(`option:${option.name()}`, (value: unknown) => {
      seen.set(name, (seen.get(name) ?? 0) + 1);
      if (name === 'approve') approveValues.push(typeof value === 'string' ? value : true);
    });
  }
  try {
    program.parse(argv as string[], { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') {
        return { kind: 'done', output };
      }
      throw new UsageError(e.message.replace(/^error: /, ''));
    }
    throw e;
  }
  for (const [name, count] of seen) {
    if (count > 1 && name !== 'approve') throw new UsageError(`--${kebab(name)} given ${count} times`);
  }

  const o = program.opts<Record<string, string | boolean | undefined>>();
  const files = [...(program.args as string[])];
  const pins: ApprovalPin[] = [];
  for (const v of approveValues) if (v !== true) classifyApproveValue(v, pins, files);
  const str = (k: string) => (typeof o[k] === 'string' ? (o[k] as string) : undefined);

  const options: RunOptions = {
    status: o.status === true,
    approve: approveValues.length > 0,
    pins,
    reverify: o.reverify === true,
    onlyStale: o.onlyStale === true,
    strict: o.strict === true,
    jobs: str('jobs') === undefined ? DEFAULT_JOBS : parseIntStrict('--jobs', str('jobs')!, 1, 64),
    timeoutSeconds: str('timeout') === undefined ? DEFAULT_TIMEOUT_SECONDS : parseIntStrict('--timeout', str('timeout')!, 1, 86400),
    shell: nonEmpty('--shell', str('shell')),
    cwd: nonEmpty('--cwd', str('cwd')),
    root: nonEmpty('--root', str('root')),
    scope: nonEmpty('--scope', str('scope')),
    json: o.json === true,
    junit: nonEmpty('--junit', str('junit')),
    shard: str('shard') === undefined ? undefined : parseShard(str('shard')!),
    failFast: o.failFast === true,
    assertClean: o.assertClean === true,
    files,
  };
  for (const f of files) if (f === '' || f.includes('\u0000')) throw new UsageError('empty ledger file name');

  if (options.status && options.approve) throw new UsageError('--status never approves: drop --approve, or drop --status to run');
  if (options.status && options.reverify) throw new UsageError('--status never runs checks: drop --reverify, or drop --status to run');
  if (options.strict && !options.status) throw new UsageError('--strict applies to --status', "for a trusted re-check use 'gate-check --reverify'");
  if (options.onlyStale && !options.reverify) throw new UsageError('--only-stale applies to --reverify');
  if (options.assertClean && options.jobs !== 1) throw new UsageError('--assert-clean needs --jobs 1: with parallel checks a change cannot be attributed to one check');
  if (options.scope !== undefined && files.length > 0) throw new UsageError('--scope selects discovered ledgers; it cannot be combined with ledger files');
  return { kind: 'run', options };
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
}
