// The command string of `sh -c '…'`, `bash -o pipefail -c '…'` and the like, parsed as a
// shell list, so that the test runners and scripts inside it are seen by the rules that ask
// what a CHECK runs (passes-with-no-tests, undeclared-inputs, undeclared-script). Only a
// literal body, one level deep: the body is a part of the CHECK, so the work stays linear.
// The rules about exit status (masked-exit and the others) do not look inside. Pure.
import { programName, unwrapped, withoutKeywords } from './commands.js';
import { parseShellList, type ShellList, type SimpleCommand } from './shell-list.js';
import type { Word } from './shell-words.js';
import { walkCommands } from './scripts.js';

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash']);

/** The literal command string a shell is given with -c, or null. */
export function inlineShellBody(command: SimpleCommand): string | null {
  const word = inlineShellWord(command);
  return word === null || word.dynamic ? null : word.value;
}

/** The word a shell is given with -c as its command string (literal or not), or null. */
export function inlineShellWord(command: SimpleCommand): Word | null {
  const words = unwrapped(withoutKeywords(command));
  const name = programName(words[0]);
  if (name === null || !SHELLS.has(name)) return null;
  let inline = false;
  for (let i = 1; i < words.length; i++) {
    const v = words[i]!.value;
    if (/^[-+][A-Za-z]+$/.test(v)) {
      if (v.startsWith('-') && v.includes('c')) inline = true;
      // -o pipefail, -euo pipefail, +o posix: the next word is an option name.
      if (/[oO]$/.test(v)) i++;
      continue;
    }
    if (v === '--rcfile' || v === '--init-file') {
      i++;
      continue;
    }
    if (v.startsWith('--')) continue;
    // The first operand: the command string with -c, else a script file (scripts.ts sees it).
    return inline ? words[i]! : null;
  }
  return null;
}

/** The shell list inside a `sh -c` command, or null. */
export function inlineShellList(command: SimpleCommand): ShellList | null {
  const body = inlineShellBody(command);
  return body === null ? null : parseShellList(body);
}

/**
 * Every simple command the CHECK runs, with the directory it runs in: the CHECK's own, and
 * those of each literal `sh -c` body (which starts in the directory of the `sh`; a `cd`
 * inside it stays inside it).
 */
export function walkWithInline(list: ShellList, workdir: string, visit: (cmd: SimpleCommand, dir: string) => void): void {
  walkCommands(list, workdir, (cmd, dir) => {
    visit(cmd, dir);
    const inner = inlineShellList(cmd);
    if (inner) walkCommands(inner, dir, (c, d) => visit(c, d));
  });
}

/** The literal `sh -c` bodies of the CHECK, parsed, in order. */
export function inlineLists(list: ShellList): ShellList[] {
  const lists: ShellList[] = [];
  for (const item of list.items) {
    for (const cmd of item.pipeline) {
      const inner = inlineShellList(cmd);
      if (inner) lists.push(inner);
    }
  }
  return lists;
}
