// git for the hook installer (is a settings file tracked?) and for `diff` (the objects of a
// revision: rev-parse and cat-file --batch). --assert-clean's git is in repo-snapshot.ts.
import { execFile, spawn } from 'node:child_process';
import { RunSetupError, UsageError } from '../errors.js';
import { gitProgram } from './git-program.js';
import { interruptedError, interruptSignal } from './interrupts.js';
import { killChild } from './kill-child.js';

/** True when git tracks `rel` under `root`, false when not (or not a repository), null when git cannot be run. */
export function gitTracks(root: string, rel: string, env: NodeJS.ProcessEnv, timeoutMs = 5000): Promise<boolean | null> {
  return new Promise((resolve) => {
    let program: string;
    try {
      program = gitProgram(env, root);
    } catch {
      return resolve(null);
    }
    execFile(
      program,
      ['-c', 'core.fsmonitor=false', 'ls-files', '--error-unmatch', '--', rel],
      { cwd: root, env: { ...env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' }, timeout: timeoutMs, maxBuffer: 64 * 1024, windowsHide: true },
      (error) => {
        if (!error) return resolve(true);
        const code = (error as NodeJS.ErrnoException).code;
        resolve(typeof code === 'string' || error.killed ? null : false);
      },
    );
  });
}

// ---- Reading a revision (gate-check diff) ----
//
// What could make these commands run something or show something other than the revision's
// own objects, and what turns it off (checked against git 2.39's code paths):
// - A partial clone's lazy fetch: reading a missing object from a "promisor" remote starts
//   `git fetch`, whose remote URL may be `ext::<command>` (repository config). Two layers:
//   GIT_NO_LAZY_FETCH keeps the fetch from starting (documented since git 2.44, honored by
//   2.39 too), and GIT_ALLOW_PROTOCOL set to nothing refuses every transport should one start
//   (it overrides every protocol.*.allow setting). A missing object is an error, not a download.
// - core.fsmonitor (index reads; cat-file and rev-parse do not refresh the index): off anyway.
// - Hooks: none of these commands runs one; core.hooksPath points nowhere anyway.
// - A pager: --no-pager (and stdout is a pipe).
// - textconv and filter drivers: cat-file applies them only with --textconv or --filters,
//   which are never passed; --batch prints the stored bytes.
// - Replace refs (refs/replace/*, local and never part of a pull request) could swap BASE's
//   tree for another: --no-replace-objects.
// - Terminal prompts and optional index locks: GIT_TERMINAL_PROMPT=0, GIT_OPTIONAL_LOCKS=0.
// Everything read is bounded (each object, the total, the time); names are passed as hex
// object ids only, so nothing from the repository becomes part of a request.

const READ_ARGS = ['--no-pager', '--no-replace-objects', '-c', 'core.fsmonitor=false', '-c', 'core.quotePath=false', '-c', 'core.hooksPath=/dev/null'];

export function gitReadEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    ...env,
    GIT_ALLOW_PROTOCOL: '',
    GIT_NO_LAZY_FETCH: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
  };
}

const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const SMALL_OUTPUT = 64 * 1024;

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}

/** Runs one short git read command; its stdout as bytes, or the failure's first stderr line. An interrupt kills it. */
function gitRead(root: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ ok: true; stdout: Buffer } | { ok: false; reason: string }> {
  const signal = interruptSignal();
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(interruptedError('BASE not read'));
    let program: string;
    try {
      program = gitProgram(env, root);
    } catch (e) {
      return resolve({ ok: false, reason: (e as Error).message });
    }
    execFile(
      program,
      [...READ_ARGS, ...args],
      { cwd: root, env: gitReadEnv(env), timeout: timeoutMs, maxBuffer: SMALL_OUTPUT, encoding: 'buffer', windowsHide: true, signal },
      (error, stdout, stderr) => {
        if (error && signal.aborted) return reject(interruptedError('BASE not read'));
        if (!error) return resolve({ ok: true, stdout });
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return resolve({ ok: false, reason: 'git is not installed (not found on PATH)' });
        if (error.killed) return resolve({ ok: false, reason: `git did not answer within ${Math.round(timeoutMs / 1000)} s` });
        resolve({ ok: false, reason: firstLine(stderr.toString('utf8')) });
      },
    );
  });
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

export interface RevisionTarget {
  /** The commit BASE names, as hex. */
  commit: string;
  /** Where `root` lies inside the repository: '' at the top, else "dir/sub/" (git's --show-prefix). */
  prefix: string;
}

/**
 * The commit a revision names, and where `root` lies in its repository. A revision that is
 * not a commit, or that git cannot resolve, is a usage error (exit 2): there is nothing to
 * compare with, which is not "nothing changed".
 */
export async function resolveRevision(root: string, rev: string, env: NodeJS.ProcessEnv, timeoutMs = 30_000): Promise<RevisionTarget> {
  // --end-of-options keeps a revision that starts with "-" from being read as an option; the
  // command refuses one anyway.
  if (rev === '' || rev.startsWith('-')) throw new UsageError(`not a revision: "${rev}"`);
  const where = await gitRead(root, ['rev-parse', '--show-prefix'], env, timeoutMs);
  if (!where.ok) throw new RunSetupError(`${root} is not inside a git working tree${where.reason ? ` (${where.reason})` : ''}`, 'run it in a clone of the repository, or pass --root');
  // One trailing line feed ends the output; a directory name may itself hold one.
  const raw = where.stdout.at(-1) === 0x0a ? where.stdout.subarray(0, -1) : where.stdout;
  let prefix: string;
  try {
    prefix = STRICT_UTF8.decode(raw);
  } catch {
    throw new RunSetupError('the path of --root inside the repository is not valid UTF-8');
  }
  if (prefix !== '' && !prefix.endsWith('/')) throw new RunSetupError(`unexpected answer from git rev-parse --show-prefix: ${JSON.stringify(prefix)}`);
  const commit = await gitRead(root, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`], env, timeoutMs);
  const hex = commit.ok ? commit.stdout.toString('latin1').trim() : '';
  if (!commit.ok || !OID.test(hex)) {
    throw new UsageError(
      `cannot resolve BASE "${rev}" to a commit${commit.ok ? '' : commit.reason ? ` (${commit.reason})` : ''}`,
      'fetch it first (git fetch origin main); in GitHub Actions check out with fetch-depth: 0',
    );
  }
  return { commit: hex, prefix };
}

export type ObjectType = 'blob' | 'tree' | 'commit' | 'tag';

export type ObjectRead =
  | { kind: 'object'; type: ObjectType; bytes: Buffer }
  | { kind: 'missing' }
  /** Over the per-object or the total cap: nothing of it was kept, and the reader is closed. */
  | { kind: 'too-large'; type: ObjectType; size: number; limit: 'object' | 'total' };

export interface ObjectReaderLimits {
  /** Largest object read (header size); a larger one is never buffered. */
  maxObjectBytes: number;
  /** All objects together. */
  maxTotalBytes: number;
  /** The whole reader's lifetime. */
  timeoutMs: number;
}

export interface ObjectReader {
  /** An object by hex id, or `<hex>^{tree}` (a commit's tree). */
  read(name: string): Promise<ObjectRead>;
  /** Ends git (idempotent). */
  close(): void;
}

const REQUEST = /^(?:[0-9a-f]{40}|[0-9a-f]{64})(?:\^\{tree\})?$/;
const HEADER = /^([0-9a-f]{40}|[0-9a-f]{64}) (blob|tree|commit|tag) (\d{1,15})$/;
const MAX_HEADER_BYTES = 256;
const MAX_STDERR = 4096;

interface Waiting {
  name: string;
  resolve: (r: ObjectRead) => void;
  reject: (e: Error) => void;
}

/**
 * One `git cat-file --batch` for a sequence of reads: requests go in as lines, answers come
 * back in order ("<oid> <type> <size>\n<bytes>\n", or "<name> missing\n"). An answer over a
 * cap ends git at its header: its bytes are never read into memory.
 */
export function openObjectReader(root: string, env: NodeJS.ProcessEnv, limits: ObjectReaderLimits): ObjectReader {
  let program: string;
  try {
    program = gitProgram(env, root);
  } catch (e) {
    // No git to run: every read says so, as when git cannot be started.
    const failure = e as Error;
    return { read: () => Promise.reject(failure), close: () => {} };
  }
  const child = spawn(program, [...READ_ARGS, 'cat-file', '--batch'], { cwd: root, env: gitReadEnv(env), stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
  const waiting: Waiting[] = [];
  let failure: Error | null = null;
  let stderr = '';
  let head: Buffer = Buffer.alloc(0);
  let body: { type: ObjectType; size: number; parts: Buffer[]; got: number } | null = null;
  let total = 0;
  let closed = false;

  const close = () => {
    if (closed) return;
    closed = true;
    clearTimeout(timer);
    signal.removeEventListener('abort', onInterrupt);
    child.stdin.end();
    killChild(child);
  };
  const fail = (error: Error) => {
    if (failure === null) failure = error;
    close();
    for (const w of waiting.splice(0)) w.reject(failure);
  };
  const timer = setTimeout(() => fail(new RunSetupError(`git cat-file did not finish within ${Math.round(limits.timeoutMs / 1000)} s (refused: reading BASE is bounded in time)`)), limits.timeoutMs);
  timer.unref?.();
  // An interrupt ends git like the time limit does, and every read waiting on it.
  const signal = interruptSignal();
  const onInterrupt = () => fail(interruptedError('BASE not read'));
  signal.addEventListener('abort', onInterrupt, { once: true });
  if (signal.aborted) onInterrupt();

  const answer = (r: ObjectRead) => {
    const w = waiting.shift();
    if (!w) return fail(new RunSetupError('git cat-file answered a request that was never made'));
    w.resolve(r);
  };
  const onHeader = (line: string): void => {
    if (waiting.length === 0) return fail(new RunSetupError('git cat-file answered a request that was never made'));
    if (line === `${waiting[0]!.name} missing` || line === `${waiting[0]!.name} ambiguous`) return answer({ kind: 'missing' });
    const m = HEADER.exec(line);
    if (!m) return fail(new RunSetupError(`unexpected answer from git cat-file: ${JSON.stringify(line.slice(0, 120))}`));
    const type = m[2] as ObjectType;
    const size = Number(m[3]);
    if (size > limits.maxObjectBytes || total + size > limits.maxTotalBytes) {
      answer({ kind: 'too-large', type, size, limit: size > limits.maxObjectBytes ? 'object' : 'total' });
      return fail(new RunSetupError('git cat-file: an object over the size cap ended the reader'));
    }
    total += size;
    body = { type, size, parts: [], got: 0 };
  };
  child.stdout.on('data', (chunk: Buffer) => {
    let at = 0;
    while (at < chunk.length && failure === null) {
      if (body !== null) {
        const take = Math.min(body.size + 1 - body.got, chunk.length - at);
        body.parts.push(chunk.subarray(at, at + take));
        body.got += take;
        at += take;
        if (body.got === body.size + 1) {
          const bytes = Buffer.concat(body.parts, body.got);
          const { type, size } = body;
          body = null;
          if (bytes[size] !== 0x0a) return fail(new RunSetupError('git cat-file: an object did not end where its header said'));
          answer({ kind: 'object', type, bytes: bytes.subarray(0, size) });
        }
        continue;
      }
      const nl = chunk.indexOf(0x0a, at);
      if (nl < 0) {
        head = Buffer.concat([head, chunk.subarray(at)]);
        if (head.length > MAX_HEADER_BYTES) fail(new RunSetupError('git cat-file: a header line too long'));
        return;
      }
      const line = Buffer.concat([head, chunk.subarray(at, nl)]).toString('latin1');
      head = Buffer.alloc(0);
      at = nl + 1;
      onHeader(line);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => {
    if (stderr.length < MAX_STDERR) stderr += chunk.toString('utf8').slice(0, MAX_STDERR - stderr.length);
  });
  child.stdin.on('error', () => {
    /* EPIPE when git is gone: the exit handler reports it */
  });
  child.on('error', (e: NodeJS.ErrnoException) => {
    fail(new RunSetupError(e.code === 'ENOENT' ? 'git is not installed (not found on PATH)' : `git cat-file could not be started: ${e.message}`));
  });
  child.on('close', (code, signal) => {
    clearTimeout(timer);
    if (waiting.length > 0 || body !== null) {
      const why = firstLine(stderr) || (signal ? `killed by ${signal}` : `exit ${code}`);
      fail(new RunSetupError(`git cat-file ended before answering: ${why}`));
    }
    closed = true;
  });

  return {
    read(name: string): Promise<ObjectRead> {
      // Only hex ids: nothing from the repository can become (part of) a request line.
      if (!REQUEST.test(name)) return Promise.reject(new Error(`openObjectReader: not an object id: ${JSON.stringify(name)}`));
      if (failure !== null) return Promise.reject(failure);
      if (closed) return Promise.reject(new RunSetupError('git cat-file reader is closed'));
      return new Promise((resolve, reject) => {
        waiting.push({ name, resolve, reject });
        child.stdin.write(`${name}\n`);
      });
    },
    close,
  };
}
