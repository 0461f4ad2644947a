// Runs the built CLI as a real subprocess, in temp directories with a private HOME.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll } from 'vitest';

export const BIN = resolve(import.meta.dirname, '../../bin/gate-check.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  input?: string;
  timeoutMs?: number;
}

const created: string[] = [];
afterAll(() => {
  for (const d of created) {
    try {
      chmodTree(d);
      rmSync(d, { recursive: true, force: true });
    } catch {
      /* best effort */
    }
  }
});

function chmodTree(d: string) {
  try {
    chmodSync(d, 0o700);
  } catch {
    /* ignore */
  }
}

/** A fresh canonical temp directory (in `base`, the system's by default), removed after the test file. */
export function tempDir(prefix = 'gc-', base = tmpdir()): string {
  const d = realpathSync(mkdtempSync(join(base, prefix)));
  created.push(d);
  return d;
}

/** A repository dir and a separate HOME, so nothing touches the real home. */
export function sandbox(): { repo: string; home: string; env: NodeJS.ProcessEnv } {
  const base = tempDir();
  const repo = join(base, 'repo');
  const home = join(base, 'home');
  mkdirSync(repo);
  mkdirSync(home, { mode: 0o700 });
  return { repo, home, env: cleanEnv({ HOME: home }) };
}

/** An environment without GATE_CHECK_*, CI or colour variables leaking in from the outer shell. */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    // npm_command: npx (npm exec) changes the commands gate-check suggests (lib/program/invocation.ts).
    if (k.startsWith('GATE_CHECK') || k === 'npm_command' || k === 'GITHUB_ACTIONS' || k === 'GITHUB_STEP_SUMMARY' || k === 'CI' || k === 'FORCE_COLOR' || k === 'NO_COLOR') continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    const p = join(dir, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, content);
  }
}

export function runCli(args: readonly string[], opts: CliOptions): CliResult {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: opts.cwd,
    env: opts.env ?? cleanEnv(),
    input: opts.input ?? '',
    encoding: 'utf8',
    timeout: opts.timeoutMs ?? 20_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.error) throw r.error;
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

/** The approval screen's lines as written, its rows joined again (a longer line goes on in rows marked "  ~ "). */
export function joinedRows(text: string): string {
  return text.replace(/\r?\n {2}~ /g, '');
}

/** Async variant for tests that signal or race the child. */
export function startCli(args: readonly string[], opts: CliOptions) {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: opts.cwd,
    env: opts.env ?? cleanEnv(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdin.end(opts.input ?? '');
  const done = new Promise<CliResult>((res) => {
    child.on('close', (code, signal) => res({ code, signal, stdout, stderr }));
  });
  return { child, done, output: () => ({ stdout, stderr }) };
}
