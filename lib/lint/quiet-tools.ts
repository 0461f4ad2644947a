// Tools that print nothing when they succeed, so that exit status is all they say. For them
// `tool && echo MARKER` with `EXPECT: MARKER` is the way to write a gate: the marker is
// printed only after exit 0, and there is no summary line to expect instead. Pure.
//
// Where the facts come from: tsc checked here (typescript 5.9.3, `tsc --noEmit -p .` on a
// clean project printed nothing, exit 0); the others from their documented defaults: eslint's
// default "stylish" formatter and stylelint's "string" formatter print only problems;
// shellcheck, hadolint, yamllint, flake8, markdownlint, go vet, `cargo fmt --check`,
// `terraform fmt -check`, `git diff --quiet/--exit-code`, diff, cmp, test, `grep -q` and
// `node --check` print nothing when there is nothing to report.
import { programName, unwrapped, withoutKeywords } from './commands.js';
import type { SimpleCommand } from './shell-list.js';
import type { Word } from './shell-words.js';

/**
 * checker: a tool that proves an outcome (a type check, a linter): negating it is a mistake.
 * predicate: a test of a condition (grep -q, diff): `! grep -q FAIL log` is an idiom.
 */
export type QuietKind = 'checker' | 'predicate';

const has = (args: readonly Word[], ...flags: string[]) => args.some((w) => flags.includes(w.value));

const QUIET: Record<string, (args: readonly Word[]) => QuietKind | null> = {
  tsc: () => 'checker',
  'vue-tsc': () => 'checker',
  eslint: () => 'checker',
  stylelint: () => 'checker',
  shellcheck: () => 'checker',
  hadolint: () => 'checker',
  yamllint: () => 'checker',
  flake8: () => 'checker',
  markdownlint: () => 'checker',
  go: (a) => (a[0]?.value === 'vet' ? 'checker' : null),
  cargo: (a) => (a[0]?.value === 'fmt' && has(a, '--check') ? 'checker' : null),
  terraform: (a) => (a[0]?.value === 'fmt' && has(a, '-check', '--check') ? 'checker' : null),
  git: (a) => (a[0]?.value === 'diff' && has(a, '--quiet', '--exit-code') ? 'predicate' : null),
  node: (a) => (has(a, '--check', '-c') ? 'checker' : null),
  diff: () => 'predicate',
  cmp: () => 'predicate',
  test: () => 'predicate',
  '[': () => 'predicate',
  '[[': () => 'predicate',
  // /^-[A-Za-z]*$/ and then the letter: /^-[A-Za-z]*q[A-Za-z]*$/ would backtrack on "-qqq…x".
  grep: (a) => (a.some((w) => w.value === '--quiet' || w.value === '--silent' || (/^-[A-Za-z]*$/.test(w.value) && w.value.includes('q'))) ? 'predicate' : null),
};

const SEARCHES = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag']);

/**
 * Whether the command prints nothing when it succeeds: a quiet tool, or a negated search
 * (`! grep -rn TODO src` succeeds only when nothing matched, and then nothing was printed).
 */
export function quietOnSuccess(command: SimpleCommand): boolean {
  if (quietKind(command) !== null) return true;
  if (!command.negated) return false;
  const words = unwrapped(withoutKeywords(command));
  const name = programName(words[0]);
  return name !== null && (SEARCHES.has(name) || (name === 'git' && words[1]?.value === 'grep'));
}

/** Whether the command is a tool that prints nothing on success, and which kind. */
export function quietKind(command: SimpleCommand): QuietKind | null {
  const words = unwrapped(withoutKeywords(command));
  const name = programName(words[0]);
  if (name === null || !Object.hasOwn(QUIET, name)) return null;
  return QUIET[name]!(words.slice(1));
}
