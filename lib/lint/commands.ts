// What a simple command is: its program name behind wrappers, whether it can fail, and what
// echo/printf print. Pure.
import type { SimpleCommand } from './shell-list.js';
import type { Word } from './shell-words.js';

export type Status = 'zero' | 'nonzero' | 'maybe';

/** Programs whose exit status is 0 whatever the code under test does. */
const ALWAYS_ZERO = new Set(['echo', 'printf', 'true', ':', 'set', 'export', 'unset']);
/**
 * Pass-through filters: at the end of a pipeline their status, not the producer's, is the
 * pipeline's (without pipefail). `grep` is not here: a grep that finds nothing fails.
 */
const FILTERS = new Set(['cat', 'tee', 'head', 'tail', 'sort', 'uniq', 'tr', 'cut', 'column', 'fold', 'sed', 'awk', 'wc', 'less', 'more', 'nl', 'fmt']);

/** Leading words that run the rest of the line as the command, with how to skip their own options. */
const WRAPPERS: Record<string, { valued: ReadonlySet<string>; skipFirstPositional?: boolean; assignments?: boolean }> = {
  env: { valued: new Set(['-u', '--unset', '-C', '--chdir', '-S']), assignments: true },
  exec: { valued: new Set(['-a']) },
  command: { valued: new Set() },
  builtin: { valued: new Set() },
  time: { valued: new Set(['-f', '-o']) },
  nice: { valued: new Set(['-n', '--adjustment']) },
  ionice: { valued: new Set(['-c', '--class', '-n', '--classdata']) },
  stdbuf: { valued: new Set(['-i', '-o', '-e']) },
  setsid: { valued: new Set() },
  // flock [options] FILE COMMAND: the lock file comes first.
  flock: { valued: new Set(['-w', '--timeout', '-E', '--conflict-exit-code']), skipFirstPositional: true },
  // busybox sh x.sh: the applet is the command.
  busybox: { valued: new Set() },
  nohup: { valued: new Set() },
  timeout: { valued: new Set(['-s', '--signal', '-k', '--kill-after']), skipFirstPositional: true },
  npx: { valued: new Set(['-p', '--package', '-c', '--call']) },
  bunx: { valued: new Set(['-p', '--package']) },
};

/**
 * Reserved words that can start a simple command inside a compound one (`if ./x.sh; then
 * …; fi`): what follows them is the command that runs. `!` after `if` negates, and is a word
 * there (the list parser only reads a leading `!`).
 */
const LEADING_KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'while', 'until', 'do', '!']);

/** The command with the reserved words in front of it removed. */
export function withoutKeywords(cmd: SimpleCommand): SimpleCommand {
  let i = 0;
  while (i < cmd.words.length && !cmd.words[i]!.quoted && LEADING_KEYWORDS.has(cmd.words[i]!.value)) i++;
  return i === 0 ? cmd : { ...cmd, words: cmd.words.slice(i) };
}

/** The program a word names, without its directory (`/usr/bin/env` is `env`); null if unknown until run time. */
export function programName(word: Word | undefined): string | null {
  if (!word || word.dynamic) return null;
  const v = word.value;
  return v.slice(v.lastIndexOf('/') + 1);
}

/** The command's words with wrappers (env, exec, npx, timeout, …) and their options removed. */
export function unwrapped(cmd: SimpleCommand): Word[] {
  let words = cmd.words;
  for (let guard = 0; guard < 8; guard++) {
    const name = programName(words[0]);
    // Own keys only: a command named `toString` or `constructor` is no wrapper.
    const spec = name !== null && Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : undefined;
    if (name === 'pnpm' || name === 'yarn') {
      const sub = words[1]?.value;
      if (sub === 'dlx' || sub === 'exec') {
        words = words.slice(2);
        continue;
      }
      return words;
    }
    // `bundle exec rspec`, `poetry run pytest`, `pipenv run pytest`: the command after them (round-21 F2).
    const runs = name === 'bundle' ? 'exec' : name === 'poetry' || name === 'pipenv' ? 'run' : null;
    if (runs !== null) {
      if (words[1]?.value !== runs || words[1].dynamic) return words;
      words = words.slice(2);
      continue;
    }
    if (!spec) return words;
    let i = 1;
    let positionalSkipped = !spec.skipFirstPositional;
    while (i < words.length) {
      const v = words[i]!.value;
      if (spec.valued.has(v)) i += 2;
      else if (v.startsWith('-') && v !== '-') i++;
      else if (spec.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(v)) i++;
      else if (!positionalSkipped) {
        positionalSkipped = true;
        i++;
      } else break;
    }
    words = words.slice(i);
  }
  return words;
}

/** A command that exits 0 whatever the code under test does: echo, printf, true, :, exit 0, assignments. */
export function isAlwaysZero(cmd: SimpleCommand): boolean {
  if (cmd.negated) return false;
  const words = unwrapped(cmd);
  const name = programName(words[0]);
  // Only assignments or redirections; a wrapper with nothing to run (`env`) is not counted.
  if (words.length === 0) return cmd.words.length === 0;
  if (name === null) return false;
  if (ALWAYS_ZERO.has(name)) return true;
  return name === 'exit' && (words.length === 1 || (words.length === 2 && words[1]!.value === '0' && !words[1]!.dynamic));
}

/**
 * An assumed status for some commands (before a `!` applies), to ask "what if the tests
 * pass, what if they fail"; null leaves the command to the usual classification.
 */
export type Assumption = (cmd: SimpleCommand) => Status | null;

/** Exit status class of one command; `previous` is $? before it (for a bare `exit`). */
export function commandStatus(cmd: SimpleCommand, previous: Status, afterPipe: boolean, assume?: Assumption): Status {
  const words = unwrapped(cmd);
  const name = programName(words[0]);
  let status: Status;
  const assumed = assume?.(cmd) ?? null;
  if (assumed !== null) status = assumed;
  else if (words.length === 0 && cmd.words.length === 0) status = 'zero';
  else if (name === 'exit') status = exitStatus(words, previous);
  else if (name !== null && ALWAYS_ZERO.has(name)) status = 'zero';
  else if (name === 'false') status = 'nonzero';
  else if (name !== null && afterPipe && FILTERS.has(name)) status = 'zero';
  else status = 'maybe';
  if (!cmd.negated) return status;
  return status === 'zero' ? 'nonzero' : status === 'nonzero' ? 'zero' : 'maybe';
}

function exitStatus(words: readonly Word[], previous: Status): Status {
  const arg = words[1];
  if (!arg) return previous;
  if (arg.dynamic) return 'maybe';
  return arg.value === '0' ? 'zero' : 'nonzero';
}

/** `exit` (with any argument): nothing after it runs. */
export function isExit(cmd: SimpleCommand): boolean {
  return programName(unwrapped(cmd)[0]) === 'exit';
}

/** `set -e`, `set -euo pipefail`, `set -o errexit`: a failing command stops the list. */
export function setsErrexit(cmd: SimpleCommand): boolean {
  const words = unwrapped(cmd);
  if (programName(words[0]) !== 'set') return false;
  // /^-[a-z]*$/ and then the letter: /^-[a-z]*e[a-z]*$/ would backtrack quadratically on "-eeee…x".
  return words.slice(1).some((w, i, rest) => (/^-[a-z]*$/.test(w.value) && w.value.includes('e')) || (w.value === '-o' && rest[i + 1]?.value === 'errexit'));
}

/** `set -o pipefail`: a pipeline fails when any of its commands fails. */
export function setsPipefail(cmd: SimpleCommand): boolean {
  const words = unwrapped(cmd);
  return programName(words[0]) === 'set' && words.some((w) => w.value === 'pipefail');
}

/** Whether the command's standard output reaches the captured output (not a file, not /dev/null). */
function stdoutCaptured(cmd: SimpleCommand): boolean {
  let captured = true;
  for (const r of cmd.redirects) {
    const op = r.op;
    const target = r.target?.value ?? '';
    if (/^1?>&$/.test(op)) captured = target === '1' || target === '2';
    else if (/^(?:1?>|1?>>|1?>\||&>|&>>)$/.test(op)) captured = target === '/dev/stdout' || target === '/dev/stderr';
  }
  return captured;
}

/**
 * What an echo or printf prints, as candidate texts to test EXPECT against: the whole output
 * and each literal argument (expansions are dropped: only text that is certainly printed).
 * Null when the command is not echo/printf or its output goes elsewhere.
 */
export function printedTexts(cmd: SimpleCommand): { program: string; texts: string[] } | null {
  const words = unwrapped(cmd);
  const program = programName(words[0]);
  if ((program !== 'echo' && program !== 'printf') || !stdoutCaptured(cmd)) return null;
  const args = words.slice(1);
  if (program === 'echo') {
    let start = 0;
    while (start < args.length && !args[start]!.dynamic && /^-[neE]+$/.test(args[start]!.value)) start++;
    const shown = args.slice(start).map((w) => w.literal);
    const joined = shown.join(' ');
    return { program, texts: unique([joined, interpretEscapes(joined), ...shown]) };
  }
  const [format, ...rest] = args;
  if (!format) return { program, texts: [] };
  const values = rest.map((w) => w.literal);
  let next = 0;
  // Flags, then a width that does not start with 0: "[-+ #0]*\d*" would split a run of zeros every way.
  const rendered = interpretEscapes(format.literal).replace(/%(%|[-+ #0]*(?:[1-9]\d*)?(?:\.\d+)?[a-zA-Z])/g, (_m, spec: string) => (spec === '%' ? '%' : (values[next++] ?? '')));
  return { program, texts: unique([rendered, format.literal, ...values]) };
}

/** Backslash escapes as echo -e / printf interpret them (the common ones). */
function interpretEscapes(text: string): string {
  const map: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', a: '\u0007', b: '\b', f: '\f', v: '\v', e: '\u001b' };
  return text.replace(/\\(.)/g, (m, c: string) => map[c] ?? m);
}

function unique(texts: string[]): string[] {
  return [...new Set(texts)];
}
