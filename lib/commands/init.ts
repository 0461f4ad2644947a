// gate-check init: a starter GATES.md (a runnable gate that calls a repository script it
// declares in DEPENDS, and a manual gate, with comments explaining each field), plus that
// script. Refuses to overwrite anything, or to write through a link; writes both or neither.
import { join } from 'node:path';
import type { Io } from '../program/io.js';
import { parseSubcommand, subcommandProgram } from '../program/subcommand-program.js';
import { UnsafeFileError } from '../errors.js';
import { createNewFile, makeDirectory, removeFile } from '../fsx/create.js';
import { resolveRoot } from '../fsx/discover.js';
import { lstatOrNull } from '../fsx/safe-read.js';
import { sanitizeLine } from '../text/sanitize.js';
import { shellCommand } from '../text/shell-quote.js';
import { currentInvocation } from '../program/invocation.js';

export const STARTER_SCRIPT = 'scripts/check-gates-example.mjs';

export const STARTER_LEDGER = `# Gates

<!--
This ledger lists the outcomes this work must reach. gate-check reads it strictly.

A gate is a task-list line at column 0:  - [ ] ID: an outcome, not an activity
Indented under it (upper case, each at most once):
  CHECK    the shell command that proves the outcome; it must be able to fail
  EXPECT   text its output must contain, or /regex/flags
  CWD      where CHECK runs, relative (default: the repository root)
  DEPENDS  comma-separated globs of the scripts and configuration that define
           what CHECK runs; a change to them needs a new approval
  INPUTS   comma-separated globs of what CHECK tests (sources, tests, data); a
           change to them makes the evidence stale (a re-run, no new approval)
  TIMEOUT  seconds CHECK may run (default: --timeout, or 120)
  EVIDENCE written by gate-check after a passing run (a digest, never the output)
A gate with CHECK and EXPECT is runnable; one with neither is manual (a person
ticks it and writes the evidence). ABANDON, at column 0 with the gate's id and a
reason, hands a gate off to a person.

Nothing runs until a person approved the exact command:
  gate-check --status     read-only report
  gate-check              shows what needs approval; runs what is approved
  gate-check --approve    approve (after reading every command), then run
The whole format is in references/gates.md of the gate-check package (in this
project: node_modules/gate-check/references/gates.md, when installed here).
-->

- [ ] G1: the example check script reports success
  CHECK: node ${STARTER_SCRIPT}
  EXPECT: example check passed
  DEPENDS: ${STARTER_SCRIPT}
  EVIDENCE: pending

- [ ] G2: a person has reviewed the change
  EVIDENCE: pending
`;

const STARTER_SCRIPT_TEXT = `// Replace this with a real verification: exit non-zero on failure, and print a line
// that only success prints (the gate's EXPECT).
const ok = true;
if (!ok) {
  console.error('example check failed');
  process.exit(1);
}
console.log('example check passed');
`;

/** Refuses anything at `path` but a real directory. */
function requireRealDirectory(path: string): void {
  const st = lstatOrNull(path);
  if (st === null) throw new UnsafeFileError(path, 'disappeared while init ran');
  if (st.isSymbolicLink()) throw new UnsafeFileError(path, 'is a symbolic link (refused: init writes only inside the repository)');
  if (!st.isDirectory()) throw new UnsafeFileError(path, 'is not a directory (refused)');
}

export async function initCommand(args: string[], io: Io): Promise<number> {
  const { program, output } = subcommandProgram('init', 'Write a starter GATES.md and its example check script. Never overwrites.');
  program.option('--root <dir>', 'repository root (default: the current directory)');
  const parsed = parseSubcommand<{ root?: string }>(program, output, args);
  if (parsed.kind === 'done') {
    io.stdout(parsed.output);
    return 0;
  }
  const root = resolveRoot(parsed.options.root, io.cwd).path;
  const ledger = join(root, 'GATES.md');
  const scripts = join(root, 'scripts');
  const script = join(root, STARTER_SCRIPT);
  // Checked before anything is created: init never overwrites.
  for (const p of [ledger, script]) if (lstatOrNull(p) !== null) throw new UnsafeFileError(p, 'already exists (init never overwrites)');
  if (lstatOrNull(join(root, 'gates')) !== null) io.stderr('note: gates/ exists; its ledgers are read together with the new GATES.md\n');
  makeDirectory(scripts, 0o755);
  // What is there now (made by us or before): never a link that would take the script outside the repository.
  requireRealDirectory(scripts);
  createNewFile(ledger, STARTER_LEDGER, 0o644);
  try {
    createNewFile(script, STARTER_SCRIPT_TEXT, 0o644);
  } catch (e) {
    // Both or neither: a ledger whose DEPENDS names a missing script would fail every run.
    removeFile(ledger);
    throw e;
  }
  io.stdout(
    [
      `wrote ${sanitizeLine(ledger, 300)}`,
      `wrote ${sanitizeLine(script, 300)}`,
      `next: edit the gates to name your outcomes, then run ${shellCommand([...currentInvocation(io.env), '--status']) ?? 'gate-check --status'}; gate-check shows each command for approval before it runs`,
      '',
    ].join('\n'),
  );
  return 0;
}
