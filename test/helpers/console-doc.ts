// Running a console block of the docs as written: `$ command` lines run in order in a fresh
// repository with gate-check on PATH (stdout and stderr together), and what they print is
// compared with the lines the page shows once this machine's details are put in the page's
// place: the repository is /home/me/project, HOME /home/me, PATH /usr/local/bin:/usr/bin:/bin,
// durations and times are placeholders, and each distinct hex digest is numbered in order of
// appearance, so a page that shows one pin four times must print one pin four times.
import { SCREEN_COLUMNS, screenRows } from '../../lib/text/review-text.js';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isBoundVariable } from '../../lib/oracle/bound-env.js';
import { BIN, sandbox } from './cli.js';

export const PAGE_ROOT = '/home/me/project';
export const PAGE_HOME = '/home/me';
export const PAGE_PATH = '/usr/local/bin:/usr/bin:/bin';

export interface Step {
  command: string;
  expected: string[];
}

/** The console blocks of a page of this repository (README.md, references/x.md). */
export function consoleBlocks(page: string): string[] {
  const text = readFileSync(resolve(import.meta.dirname, '../..', page), 'utf8');
  return [...text.matchAll(/```console\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

/** `$ ` lines and the non-empty lines under each; a `# comment` after the command is dropped when run. */
export function steps(block: string): Step[] {
  const out: Step[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith('$ ')) out.push({ command: line.slice(2), expected: [] });
    else if (line !== '') out[out.length - 1]!.expected.push(line);
  }
  return out;
}

/** Placeholders for what differs between machines and runs; digests numbered by first appearance in `seen`. */
export function normalizer(seen = new Map<string, string>()): (text: string) => string {
  return (text) =>
    text
      .replace(/\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z\b/g, '<TIME>')
      .replace(/\(\d+ ms\)/g, '(<N> ms)')
      .replace(/\b[0-9a-f]{12,64}\b/g, (hex) => {
        let name = seen.get(hex);
        if (name === undefined) seen.set(hex, (name = `<HEX${seen.size + 1}:${hex.length}>`));
        return name;
      });
}

export interface DocRepo {
  repo: string;
  home: string;
  env: NodeJS.ProcessEnv;
  /** Runs a shell command line in the repository, output merged; `# comments` are the shell's. */
  sh: (command: string) => { status: number | null; output: string };
  write: (files: Record<string, string>) => void;
  /** The command's output as the page would show it. */
  page: (text: string) => string;
}

export function docRepo(): DocRepo {
  const s = sandbox();
  const bin = join(s.home, '..', 'bin');
  mkdirSync(bin);
  // As npm installs it: a link named gate-check to the bin, run by the node found on PATH.
  symlinkSync(BIN, join(bin, 'gate-check'));
  const path = [...new Set([bin, dirname(process.execPath), '/usr/bin', '/bin'])].join(':');
  // The page's machine sets none of the variables an approval binds besides PATH (NODE_OPTIONS, PYTHON*, …).
  const env = Object.fromEntries(Object.entries({ ...s.env, PATH: path }).filter(([name]) => !isBoundVariable(name)));
  return {
    ...s,
    env,
    sh: (command) => {
      const r = spawnSync('/bin/sh', ['-c', `{ ${command}\n} 2>&1`], { cwd: s.repo, env, encoding: 'utf8' });
      return { status: r.status, output: r.stdout };
    },
    write: (files) => {
      for (const [rel, content] of Object.entries(files)) {
        mkdirSync(dirname(join(s.repo, rel)), { recursive: true });
        writeFileSync(join(s.repo, rel), content);
      }
    },
    page: (text) => pageRows(text, (line) => line.split(path).join(PAGE_PATH).split(s.repo).join(PAGE_ROOT).split(s.home).join(PAGE_HOME)),
  };
}

/**
 * `text` with `replace` applied to each line as the program wrote it: a line the approval
 * screen cut into rows ("  ~ " continuations) is joined, replaced, and cut again at the page's
 * 80 columns (this machine's PATH or temporary folders may be longer than the page's).
 */
function pageRows(text: string, replace: (line: string) => string): string {
  const rows = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < rows.length; i++) {
    let line = rows[i]!;
    let cut = false;
    while (i + 1 < rows.length && rows[i + 1]!.startsWith('  ~ ')) {
      line += rows[++i]!.slice(4);
      cut = true;
    }
    const replaced = replace(line);
    out.push(...(cut ? screenRows(replaced, SCREEN_COLUMNS) : [replaced]));
  }
  return out.join('\n');
}

/** Runs each step; returns [what the page shows, what ran], both normalized and without empty lines, per step. */
export function runSteps(r: DocRepo, block: string): { command: string; expected: string[]; actual: string[]; status: number | null }[] {
  const docHex = new Map<string, string>();
  const runHex = new Map<string, string>();
  const docSide = normalizer(docHex);
  const runSide = normalizer(runHex);
  // A digest the page shows in a command (a pin) is the one this run printed in its place.
  const asRun = (command: string) => {
    docSide(command);
    const byName = new Map([...runHex].map(([hex, name]) => [name, hex]));
    return command.replace(/\b[0-9a-f]{12,64}\b/g, (hex) => byName.get(docHex.get(hex)!) ?? hex);
  };
  return steps(block).map((step) => {
    const ran = r.sh(asRun(step.command));
    return {
      command: step.command,
      expected: step.expected.map(docSide),
      actual: runSide(r.page(ran.output))
        .split('\n')
        .filter((l) => l !== ''),
      status: ran.status,
    };
  });
}
