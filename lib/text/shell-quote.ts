// Quoting for the commands gate-check suggests (`gate-check --approve …`): a person pastes
// them into a POSIX shell, so every word that carries repository or command-line text is
// single-quoted unless it is made only of characters no shell treats specially. Pure.
import { lazyRegExp } from './lazy-regexp.js';
import { findUnsafeChar } from './sanitize.js';

/** Characters that mean nothing to sh, bash, dash or zsh in a word ('=' not first: zsh expands =cmd). */
const PLAIN_WORD = /^[A-Za-z0-9_@%+:,./-][A-Za-z0-9_@%+=:,./-]*$/;

/** Characters a printed word must not hold: they would be stripped or hidden on the way to the terminal. */
const hidden = lazyRegExp(() => /[\t\n\r\p{Cf}\p{Zl}\p{Zp}]/u);

/** One word for a POSIX shell: as is when plain, else in single quotes (a ' is written '\''). */
export function shellQuote(word: string): string {
  if (PLAIN_WORD.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * Whether a word can be shown in a suggested command exactly as the shell will receive it:
 * nothing a sanitizer would remove (controls, escapes, bidi overrides) and nothing invisible.
 * A suggestion with such a word is not printed at all: a command that differs from what
 * it shows is worse than none.
 */
export function isPrintableWord(word: string): boolean {
  return word !== '' && findUnsafeChar(word) === null && !hidden().test(word);
}

/** A whole command line, or null when some word cannot be shown faithfully. */
export function shellCommand(words: readonly string[]): string | null {
  if (!words.every(isPrintableWord)) return null;
  return words.map(shellQuote).join(' ');
}
