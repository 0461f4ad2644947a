// references/lint.md as runnable examples. A section (## or ###) declares files as
//
//   `GATES.md`:
//
//   ```markdown
//   …
//   ```
//
// and shows sessions in ```console blocks (`$ command` lines, then the output). Each
// session runs in a fresh repository holding the files its section declared before it
// (a later declaration of the same path replaces the earlier one), through sh, with
// gate-check on PATH; stdout and stderr together must be exactly the lines shown, after
// normalize(): the sandbox's path reads /repo, digests and durations read as placeholders.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, sandbox, writeFiles } from '../helpers/cli.js';

export interface Session {
  section: string;
  files: Record<string, string>;
  steps: { command: string; expected: string[] }[];
}

const FILE = /^`([^`\n]+)`:\n\n(`{3,})[a-z]*\n([\s\S]*?)\n\2$/gm;
const CONSOLE = /^```console\n([\s\S]*?)\n```$/gm;

export function sessions(page: string): Session[] {
  const out: Session[] = [];
  const parts = page.split(/^(?=#{2,3} )/m);
  for (const part of parts) {
    const section = /^#{2,3} (.*)$/m.exec(part)?.[1] ?? '(top)';
    type Block = { at: number } & ({ kind: 'file'; path: string; text: string } | { kind: 'console'; text: string });
    const blocks: Block[] = [];
    for (const m of part.matchAll(FILE)) blocks.push({ at: m.index!, kind: 'file', path: m[1]!, text: m[3]! + '\n' });
    for (const m of part.matchAll(CONSOLE)) blocks.push({ at: m.index!, kind: 'console', text: m[1]! });
    blocks.sort((a, b) => a.at - b.at);
    const files: Record<string, string> = {};
    for (const b of blocks) {
      if (b.kind === 'file') {
        files[b.path] = b.text;
        continue;
      }
      const steps: Session['steps'] = [];
      for (const line of b.text.split('\n')) {
        if (line.startsWith('$ ')) steps.push({ command: line.slice(2), expected: [] });
        else steps[steps.length - 1]?.expected.push(line);
      }
      out.push({ section, files: { ...files }, steps });
    }
  }
  return out;
}

/**
 * What varies from run to run, as the page writes it: the repository is /repo, a SHA-256 is
 * <sha256>, a timestamp is <time>, a test runner's duration_ms is N. Nothing else (a number
 * in a message is what the example shows). The page's text goes through it too, so an
 * example that shows a real digest or time still compares.
 */
export function normalize(text: string, repo: string): string {
  return text
    .replaceAll(repo, '/repo')
    .replace(/\b[0-9a-f]{64}\b/g, '<sha256>')
    .replace(/\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z\b/g, '<time>')
    .replace(/\bduration_ms:? [\d.]+/g, 'duration_ms N');
}

/** Runs one session's commands; returns each command's combined output lines. */
export function runSession(session: Session): string[][] {
  const s = sandbox();
  writeFiles(s.repo, session.files);
  const bin = join(s.home, '..', 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'gate-check'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'gate-check'), 0o755);
  const env = { ...s.env, PATH: `${bin}:${process.env.PATH}`, NO_COLOR: '1' };
  return session.steps.map((step) => {
    const r = spawnSync('/bin/sh', ['-c', `{ ${step.command}; } 2>&1`], { cwd: s.repo, env, encoding: 'utf8' });
    const lines = normalize(r.stdout, s.repo).split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    return lines;
  });
}
