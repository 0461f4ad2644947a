// Real write failures for tests: the CLI under a file size limit (RLIMIT_FSIZE: a write past
// it is cut short, the next one fails with EFBIG; Node ignores SIGXFSZ), and, when the tests
// run as root, a tiny tmpfs that fills up for real (ENOSPC).
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, cleanEnv, tempDir, type CliResult } from './cli.js';

export const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** Runs the CLI with every file it writes limited to `blocks` × 512 bytes. */
export function runCliWithFileLimit(blocks: number, args: readonly string[], opts: { cwd: string; env?: NodeJS.ProcessEnv }): CliResult {
  const r = spawnSync('/bin/sh', ['-c', 'ulimit -f "$1" && shift && exec "$@"', 'sh', String(blocks), process.execPath, BIN, ...args], {
    cwd: opts.cwd,
    env: opts.env ?? cleanEnv(),
    input: '',
    encoding: 'utf8',
    timeout: 20_000,
  });
  if (r.error) throw r.error;
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

/** A mounted tmpfs of `bytes` (root only), or null where it cannot be mounted. Unmount with the returned function. */
export function tinyTmpfs(bytes: number, options = 'mode=0755'): { dir: string; unmount: () => void; readOnly: () => boolean } | null {
  if (!isRoot) return null;
  const dir = join(tempDir('gc-tmpfs-'), 'mnt');
  mkdirSync(dir);
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes},${options}`, 'tmpfs', dir], { encoding: 'utf8' });
  if (r.status !== 0) return null;
  return {
    dir,
    unmount: () => void spawnSync('umount', ['-l', dir]),
    readOnly: () => spawnSync('mount', ['-o', 'remount,ro', dir]).status === 0,
  };
}
