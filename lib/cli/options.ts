// The root command line (DESIGN §4): read by the fast parser or commander (both from
// option-table.ts); every value is validated here, and every misuse (unknown, duplicate,
// conflicting or malformed option) is one UsageError.
import { UsageError } from '../errors.js';
import { fastParse } from './fast-args.js';
import { DEFAULT_JOBS, DEFAULT_TIMEOUT_SECONDS, type ApprovalPin, type RunOptions, type Shard } from '../program/run-options.js';
import { SUBCOMMANDS, type RawArgs } from './option-table.js';

declare const __VERSION__: string;
export const VERSION = typeof __VERSION__ === 'string' ? __VERSION__ : '0.0.0-dev';

export type ParsedCommandLine =
  | { kind: 'done'; output: string }
  | { kind: 'run'; options: RunOptions }
  | { kind: 'subcommand'; name: string; args: string[] };

const PIN = /^([A-Za-z0-9][A-Za-z0-9._:-]*)@([0-9a-fA-F]{32,64})$/;
const PIN_LIKE = /^[A-Za-z0-9][A-Za-z0-9._:-]*@/;
// A scope's gate as a root run names it (task-7/work:T1): approved within that scope.
const SCOPED_PIN = /^([A-Za-z0-9][A-Za-z0-9._-]*)\/([A-Za-z0-9][A-Za-z0-9._:-]*@[0-9a-fA-F]{32,64})$/;

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
  const scoped = SCOPED_PIN.exec(value);
  if (scoped) {
    throw new UsageError(`--approve ${value}: ${scoped[2]!.split('@')[0]} is a gate of scope ${scoped[1]}, whose ledgers a root run does not approve`, `run: gate-check --scope ${scoped[1]} --approve ${scoped[2]}`);
  }
  if (PIN_LIKE.test(value)) {
    throw new UsageError(`--approve ${value}: a pin is ID@HEX with 32 to 64 hex digits of the signature shown by a plain run (fewer could be matched by a second, colliding command)`);
  }
  files.push(value);
}

/** The options each action takes; anything else with it is a usage error, never ignored. */
const ACTION_OPTIONS: ReadonlyMap<string, readonly string[]> = new Map([
  ['--list-scopes', ['--root', '--json']],
  ['--claim', ['--scope', '--leaf', '--root']],
  ['--release', ['--scope', '--leaf', '--root']],
]);

function checkActions(raw: RawArgs, files: readonly string[]): void {
  const actions = [...ACTION_OPTIONS.keys()].filter((a) => raw.occurrences.has(a));
  if (actions.length > 1) throw new UsageError(`${actions.join(' and ')} cannot be combined`);
  const action = actions[0];
  if (action === undefined) {
    if (raw.occurrences.has('--leaf')) throw new UsageError('--leaf applies to --claim and --release');
    return;
  }
  const allowed = ACTION_OPTIONS.get(action)!;
  for (const flag of raw.occurrences.keys()) {
    if (flag !== action && !allowed.includes(flag)) throw new UsageError(`${flag} does not apply to ${action} (it takes ${allowed.join(', ')})`);
  }
  if (files.length > 0) throw new UsageError(`${action} takes no ledger files${action === '--list-scopes' ? '' : ': a lease is taken for a scope (--scope, --leaf)'}`);
}

/**
 * The root command line. Well-formed ones are read by the small parser; help, version and
 * everything it declines go to commander (loaded only then), built from the same table.
 */
export async function parseCommandLine(argv: readonly string[]): Promise<ParsedCommandLine> {
  const first = argv[0];
  if (first !== undefined && SUBCOMMANDS.has(first)) return { kind: 'subcommand', name: first, args: argv.slice(1) };
  let raw = fastParse(argv);
  if (raw === null) {
    const { commanderParse } = await import('./commander-args.js');
    const parsed = commanderParse(argv, VERSION);
    if (parsed.kind === 'done') return parsed;
    raw = parsed.raw;
  }
  return { kind: 'run', options: optionsFrom(raw) };
}

/** Validates what a parser read: every value, every combination. */
export function optionsFrom(raw: RawArgs): RunOptions {
  for (const [flag, list] of raw.occurrences) {
    if (list.length > 1 && flag !== '--approve') throw new UsageError(`${flag} given ${list.length} times`);
  }
  const one = (flag: string): string | true | undefined => raw.occurrences.get(flag)?.[0];
  const str = (flag: string) => {
    const v = one(flag);
    return typeof v === 'string' ? v : undefined;
  };
  const files = [...raw.args];
  const pins: ApprovalPin[] = [];
  const approveValues = raw.occurrences.get('--approve') ?? [];
  for (const v of approveValues) if (v !== true) classifyApproveValue(v, pins, files);

  const options: RunOptions = {
    status: one('--status') === true,
    approve: approveValues.length > 0,
    pins,
    reverify: one('--reverify') === true,
    onlyStale: one('--only-stale') === true,
    strict: one('--strict') === true,
    jobs: str('--jobs') === undefined ? DEFAULT_JOBS : parseIntStrict('--jobs', str('--jobs')!, 1, 64),
    timeoutSeconds: str('--timeout') === undefined ? DEFAULT_TIMEOUT_SECONDS : parseIntStrict('--timeout', str('--timeout')!, 1, 86400),
    shell: nonEmpty('--shell', str('--shell')),
    cwd: nonEmpty('--cwd', str('--cwd')),
    root: nonEmpty('--root', str('--root')),
    scope: nonEmpty('--scope', str('--scope')),
    json: one('--json') === true,
    junit: nonEmpty('--junit', str('--junit')),
    shard: str('--shard') === undefined ? undefined : parseShard(str('--shard')!),
    failFast: one('--fail-fast') === true,
    assertClean: one('--assert-clean') === true,
    listScopes: one('--list-scopes') === true,
    claim: one('--claim') === true,
    release: one('--release') === true,
    leaf: nonEmpty('--leaf', str('--leaf')),
    files,
  };
  checkActions(raw, files);
  for (const f of files) if (f === '' || f.includes('\u0000')) throw new UsageError('empty ledger file name');

  if (options.status && options.approve) throw new UsageError('--status never approves: drop --approve, or drop --status to run');
  if (options.status && options.reverify) throw new UsageError('--status never runs checks: drop --reverify, or drop --status to run');
  if (options.strict && !options.status) throw new UsageError('--strict applies to --status', "for a trusted re-check use 'gate-check --reverify'");
  if (options.onlyStale && !options.reverify) throw new UsageError('--only-stale applies to --reverify');
  if (options.assertClean && options.jobs !== 1) throw new UsageError('--assert-clean needs --jobs 1: with parallel checks a change cannot be attributed to one check');
  if (options.scope !== undefined && files.length > 0) throw new UsageError('--scope selects discovered ledgers; it cannot be combined with ledger files');
  return options;
}

