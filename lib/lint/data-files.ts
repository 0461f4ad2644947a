// Which of the files a CHECK names it only reads as data: named nowhere but as an argument or
// input of a program that cannot run what it reads (grep, cat, test, diff, …). The approval
// screen shows them apart from code (round-38b F3: build output a check greps was said to run;
// round-38c F6: scripts a runner finds by itself were put with data, so this list is the
// narrow one: a file named anywhere else, or found any other way, stays with code).
// Pure: paths are resolved by the caller's resolver, as unbound-scripts.ts and named-files.ts do.
import { programName, unwrapped, withoutKeywords } from './commands.js';
import { inlineShellList } from './inline-shell.js';
import { inDirectory, walkCommands, type PathResolver } from './scripts.js';
import { parseShellList, type SimpleCommand } from './shell-list.js';

/**
 * Programs that read the files they are given and run none of them, whatever their options
 * (no option of these names a program to start: GNU diff's --diff-program is sdiff's, and
 * sdiff is not here).
 */
const READERS = new Set(['cat', 'head', 'tail', 'wc', 'grep', 'egrep', 'fgrep', 'test', '[', 'diff', 'cmp', 'ls', 'stat', 'du', 'md5sum', 'sha1sum', 'sha256sum', 'sha512sum', 'cksum', 'b2sum']);

/**
 * The repository files among `named` that the CHECK names only as data of a reader: every
 * word and redirection of a reader counts, every word, assignment and redirection of any other
 * command counts against. A reader whose output is piped into another command counts against
 * too (`cat x.sh | sh`).
 */
export function dataOnlyFiles(check: string, workdir: string | null, named: readonly string[], resolve: PathResolver = inDirectory): Set<string> {
  if (workdir === null || named.length === 0) return new Set();
  const wanted = new Set(named);
  const read = new Set<string>();
  const elsewhere = new Set<string>();
  let list;
  try {
    list = parseShellList(check);
  } catch {
    return new Set();
  }
  const note = (into: Set<string>, value: string, dir: string) => {
    // `--file=x`, `-fx` are not split: such a word is named elsewhere unless it is a path itself.
    const path = value === '' ? null : resolve(value, dir);
    if (path !== null && wanted.has(path)) into.add(path);
  };
  const visit = (command: SimpleCommand, dir: string, previous: SimpleCommand | null) => {
    const cmd = withoutKeywords(command);
    const words = unwrapped(cmd);
    const name = programName(words[0]);
    // Its output written to a file, which something may then run (`cat rules.mk > Makefile;
    // make`, round-38e F1): not data. Only /dev/null and the other output stream are safe.
    const writes = cmd.redirects.some((r) => !r.op.includes('<') && !(r.target !== null && (r.target.value === '/dev/null' || /^&[12-]?$/.test(r.target.value) || /^[12]$/.test(r.target.value))));
    const reader = name !== null && READERS.has(name) && words.length === cmd.words.length && !writes;
    for (const w of reader ? words.slice(1) : cmd.words) note(reader ? read : elsewhere, w.value, dir);
    for (const a of cmd.assignments) note(elsewhere, a.value.slice(a.value.indexOf('=') + 1), dir);
    for (const r of cmd.redirects) if (r.target) note(reader && r.op.includes('<') ? read : elsewhere, r.target.value, dir);
    // Piped into this command: what the command before it read is this one's input (`cat x.sh | sh`).
    if (previous !== null) {
      for (const w of previous.words) note(elsewhere, w.value, dir);
      for (const r of previous.redirects) if (r.target) note(elsewhere, r.target.value, dir);
    }
    // A literal `sh -c '…'` body, read the same way from the folder it starts in.
    const inner = inlineShellList(cmd);
    if (inner) walkCommands(inner, dir, visit);
  };
  walkCommands(list, workdir, visit);
  return new Set([...read].filter((p) => !elsewhere.has(p)));
}
