// The GitHub Action's inputs, as action.yml hands them over: through environment variables
// (never interpolated into a script), read and validated here. Extra arguments are one per
// line and never split by a shell, so `$(…)` or `; cmd` in an input is an argument, not code.
// Pure.
import { UsageError } from '../errors.js';

export type ActionMode = 'status' | 'reverify' | 'merge';
export const ACTION_MODES: readonly ActionMode[] = ['status', 'reverify', 'merge'];

/** The variables action.yml sets from its inputs (its `env:` block names exactly these). */
export const INPUT_ENV = {
  mode: 'GATE_CHECK_ACTION_MODE',
  shardIndex: 'GATE_CHECK_ACTION_SHARD_INDEX',
  shardCount: 'GATE_CHECK_ACTION_SHARD_COUNT',
  args: 'GATE_CHECK_ACTION_ARGS',
  workingDirectory: 'GATE_CHECK_ACTION_WORKING_DIRECTORY',
  reports: 'GATE_CHECK_ACTION_REPORTS',
} as const;

export interface ActionInputs {
  mode: ActionMode;
  shard: { index: number; count: number } | null;
  /** merge: how many shards the reverify jobs had (shard-count), passed as --shards. */
  shards: number | null;
  /** Extra gate-check arguments, exactly as written, one per input line. */
  args: string[];
  /** As given (relative to the workspace, or absolute). */
  workingDirectory: string;
  /** merge: report files or folders of them, one per line. */
  reports: string[];
}

/** Arguments whose meaning the action owns: the mode, the report and JUnit files, the shard. */
const OWNED = ['--status', '--reverify', '--approve', '--json', '--junit', '--shard', '--shards'];
/** They print help or a version and exit 0 without a report: a pass that checked nothing. */
const NOT_A_RUN = ['--help', '--version'];
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/;

function refuseInput(name: string, message: string): never {
  throw new UsageError(`input ${name}: ${message}`, 'see the inputs in action.yml (references/ci.md)');
}

/** One argument per line; surrounding blanks and blank lines dropped; nothing else changes. */
export function inputLines(text: string | undefined): string[] {
  if (text === undefined) return [];
  return text
    .split('\n')
    .map((l) => l.replace(/^[ \t\r]+|[ \t\r]+$/g, ''))
    .filter((l) => l !== '');
}

function flagName(arg: string): string {
  const eq = arg.indexOf('=');
  return eq < 0 ? arg : arg.slice(0, eq);
}

/** Extra arguments: refused when they would replace what the action decides, or end the run without a report. */
export function checkExtraArgs(args: readonly string[], mode: ActionMode): void {
  for (const arg of args) {
    if (CONTROL.test(arg)) refuseInput('args', `an argument holds a control character (${JSON.stringify(arg).slice(0, 60)})`);
    const flag = flagName(arg);
    if (NOT_A_RUN.includes(flag)) refuseInput('args', `${flag} prints text and checks nothing; it is not an argument for the action`);
    // gate-check has no short options but -h and -V; a bundle such as -hV would be read by commander.
    if (/^-[^-]/.test(arg)) refuseInput('args', `${JSON.stringify(arg)}: short options are not accepted (gate-check's only ones are -h and -V)`);
    if (OWNED.includes(flag)) refuseInput('args', `${flag} is set by the action (inputs mode, shard-index and shard-count; outputs report and junit)`);
    if (mode === 'merge' && arg === '--') refuseInput('args', '"--" is not accepted in merge mode: the reports come from the input reports');
  }
}

const SHARD_NUMBER = /^[1-9][0-9]{0,3}$/;

function readShard(env: NodeJS.ProcessEnv, mode: ActionMode): ActionInputs['shard'] {
  const index = (env[INPUT_ENV.shardIndex] ?? '').trim();
  const count = (env[INPUT_ENV.shardCount] ?? '').trim();
  if (mode === 'merge') return null; // readMergeShards
  if (index === '' && count === '') return null;
  if (mode !== 'reverify') refuseInput('shard-index', `shards apply to mode reverify, not ${mode}`);
  if (index === '' || count === '') refuseInput(index === '' ? 'shard-index' : 'shard-count', 'shard-index and shard-count go together');
  if (!SHARD_NUMBER.test(index)) refuseInput('shard-index', `${JSON.stringify(index.slice(0, 40))} is not a whole number from 1`);
  if (!SHARD_NUMBER.test(count)) refuseInput('shard-count', `${JSON.stringify(count.slice(0, 40))} is not a whole number from 1`);
  const i = Number(index);
  const n = Number(count);
  if (i > n) refuseInput('shard-index', `${i} is more than shard-count ${n}`);
  return { index: i, count: n };
}

/** merge: shard-count alone, required: the reports alone cannot tell a missing shard from a smaller run (round-39y Y2). */
function readMergeShards(env: NodeJS.ProcessEnv, mode: ActionMode): number | null {
  if (mode !== 'merge') return null;
  const index = (env[INPUT_ENV.shardIndex] ?? '').trim();
  const count = (env[INPUT_ENV.shardCount] ?? '').trim();
  if (index !== '') refuseInput('shard-index', 'merge takes shard-count alone: the number of shards the reverify jobs had');
  if (count === '') refuseInput('shard-count', 'merge needs shard-count, the number of shards the reverify jobs had (the matrix size): the reports alone cannot tell a missing shard from a smaller run');
  if (!SHARD_NUMBER.test(count) || Number(count) > 1000) refuseInput('shard-count', `${JSON.stringify(count.slice(0, 40))} is not a whole number from 1 to 1000`);
  return Number(count);
}

export function readInputs(env: NodeJS.ProcessEnv): ActionInputs {
  const rawMode = (env[INPUT_ENV.mode] ?? '').trim();
  const mode = ACTION_MODES.find((m) => m === rawMode);
  if (mode === undefined) refuseInput('mode', `${JSON.stringify(rawMode.slice(0, 40))} is not one of ${ACTION_MODES.join(', ')}`);
  const shard = readShard(env, mode);
  const args = inputLines(env[INPUT_ENV.args]);
  checkExtraArgs(args, mode);
  const workingDirectory = (env[INPUT_ENV.workingDirectory] ?? '').trim() || '.';
  if (CONTROL.test(workingDirectory)) refuseInput('working-directory', 'holds a control character');
  const reports = inputLines(env[INPUT_ENV.reports]);
  if (mode === 'merge' && reports.length === 0) refuseInput('reports', 'merge needs the shard reports (files or folders, one per line)');
  if (mode !== 'merge' && reports.length > 0) refuseInput('reports', `reports apply to mode merge, not ${mode}`);
  for (const r of reports) if (CONTROL.test(r)) refuseInput('reports', 'a line holds a control character');
  const shards = readMergeShards(env, mode);
  return { mode, shard, shards, args, workingDirectory, reports };
}
