// What a run of the root command line is asked to do, once parsed (cli/options.ts parses it):
// the one type every run, report and action is given, and the defaults it starts from. It
// lives outside cli/ so that commands/ need nothing from the layer that dispatches to them.

export const DEFAULT_JOBS = 1;
export const DEFAULT_TIMEOUT_SECONDS = 120;

export interface ApprovalPin {
  /** As typed: a qualified (STEM:ID) or plain gate id. */
  id: string;
  /** Lower-case hex, 32 to 64 digits: a prefix of the oracle signature that was displayed. */
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
  /** --list-scopes, --claim, --release: actions of their own, not a run or a report. */
  listScopes: boolean;
  claim: boolean;
  release: boolean;
  leaf: string | undefined;
  files: string[];
}
