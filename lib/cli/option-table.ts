// The one definition of the root command line: every option, its kind and its help. The fast
// parser on the hot path (fast-args.ts) and commander (commander-args.ts: help, errors,
// suggestions) are both driven by this table, so they cannot disagree about what exists.
import { DEFAULT_JOBS, DEFAULT_TIMEOUT_SECONDS } from '../program/run-options.js';

export type OptionKind = 'flag' | 'value' | 'optional';

export interface OptionSpec {
  /** The long flag, with its dashes. */
  flag: `--${string}`;
  kind: OptionKind;
  /** Placeholder shown in help for a value. */
  valueName?: string;
  help: string;
}


export const OPTIONS: readonly OptionSpec[] = [
  { flag: '--status', kind: 'flag', help: 'report only: never execute, approve, lock or write anything' },
  {
    flag: '--approve',
    kind: 'optional',
    valueName: 'pin',
    help: 'approve pending oracles, then run them; ID@HEX (32+ hex) approves only the oracle shown with that signature prefix (repeatable, comma-separated)',
  },
  { flag: '--reverify', kind: 'flag', help: 're-run every runnable gate, including met ones; demote failures' },
  { flag: '--only-stale', kind: 'flag', help: 'with --reverify: re-run only ticked gates whose evidence does not hold (stale, mismatched, unverified, or for another definition)' },
  { flag: '--strict', kind: 'flag', help: 'with --status: count claimed, unverified, mismatched or stale evidence as unmet' },
  { flag: '--jobs', kind: 'value', valueName: 'n', help: `concurrent checks, 1..64 (default ${DEFAULT_JOBS}); reports keep ledger order` },
  { flag: '--timeout', kind: 'value', valueName: 'seconds', help: `per-check timeout for gates without TIMEOUT:, 1..86400 (default ${DEFAULT_TIMEOUT_SECONDS})` },
  { flag: '--shell', kind: 'value', valueName: 'path', help: 'shell for CHECK (default: $GATE_CHECK_SHELL, then /bin/sh)' },
  { flag: '--cwd', kind: 'value', valueName: 'dir', help: 'working directory of gates without CWD: (default: the repository root; CWD: is always relative to the root)' },
  { flag: '--root', kind: 'value', valueName: 'dir', help: 'repository root (default: found as git finds a work tree: the nearest folder up with GATES.md, gates/ or .gate-check/, within the git top level; else the top level, else the current directory)' },
  {
    flag: '--scope',
    kind: 'value',
    valueName: 'id',
    help: 'use the ledgers of .gate-check/<id>/ (default: $GATE_CHECK_SCOPE; then GATES.md and gates/, whose verdict covers every scope; without them, the only scope)',
  },
  { flag: '--list-scopes', kind: 'flag', help: 'print the scopes of .gate-check/, one per line (or --json), and exit' },
  { flag: '--claim', kind: 'flag', help: "take a lease on the OWNS: globs of a scope's ledger (--scope, --leaf); exit 3 when it overlaps a live lease" },
  { flag: '--release', kind: 'flag', help: "give back a scope's leases (--scope, --leaf); works when its folder is gone or its ledger does not parse" },
  { flag: '--leaf', kind: 'value', valueName: 'stem', help: "with --claim or --release: which ledger of the scope (its file name without .md)" },
  { flag: '--json', kind: 'flag', help: 'print one JSON document (schema: references/report.schema.json)' },
  { flag: '--junit', kind: 'value', valueName: 'file', help: 'also write a JUnit XML report' },
  { flag: '--shard', kind: 'value', valueName: 'i/n', help: 'run only the i-th of n deterministic shares of the runnable gates' },
  { flag: '--fail-fast', kind: 'flag', help: 'start no new check after the first failure' },
  { flag: '--assert-clean', kind: 'flag', help: 'fail a check that changes files in the repository (needs --jobs 1)' },
];

export const OPTION_BY_FLAG: ReadonlyMap<string, OptionSpec> = new Map(OPTIONS.map((o) => [o.flag, o]));

/** Subcommands are dispatched by name (the first argument) before any option is parsed. */
export const SUBCOMMANDS: ReadonlySet<string> = new Set(['init', 'lint', 'approvals', 'history', 'merge', 'hook', 'diff', 'dispatch']);

export const ROOT_DESCRIPTION = 'Fail-closed, approval-bound checker for completion gates written as code.';
export const FILES_ARGUMENT = 'ledger files (default: GATES.md and gates/*.md under --root)';

export const EXIT_CODES_HELP = `
Commands (gate-check <command> --help for each):
  init                 write a starter GATES.md
  lint [file...]       find gates that cannot fail, weak expectations, undeclared scripts
  approvals list|revoke|prune   inspect and withdraw approvals
  history [ID]         recent attempts of a gate, labelled flaky or stuck
  merge --shards N report...  combine --json reports of --shard runs into one verdict
  hook <command>       Stop hooks for coding agents: stop, install, uninstall, doctor,\n                       accept, bind, forget (gate-check hook --help)
  diff BASE            gates removed, weakened or changed since BASE (exit 1), for pull requests
  dispatch open|start|seal|return|abandon|status   waves of sub-agents for a scope

Exit codes:
  0    every gate met
  1    something unmet, not run, awaiting approval, or handed off
  2    usage, parse or infrastructure failure (unsafe store, lock timeout, unsafe write)
  3    lease conflict: --claim overlaps a live lease (or one that cannot be trusted)
  130  interrupted (every running check's process group is killed first)

Without files: --scope, else $GATE_CHECK_SCOPE, else GATES.md and gates/*.md under --root (their
verdict also covers every scope of .gate-check/), else the only scope; several: refused.
Scopes, leases and waves: references/parallel.md.
Nothing in a ledger runs until a person approved that exact oracle (see SECURITY.md).
`;

/** What a parser extracted: each option's occurrences (true for a flag or a bare --approve), and the positional arguments. */
export interface RawArgs {
  occurrences: Map<string, (string | true)[]>;
  args: string[];
}
