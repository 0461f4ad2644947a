// Words of a CHECK read for what PATH could find with them: a generous reading of shell text,
// where a word too many costs one more look-up or one more bound file, and a word missed lets
// repository code run unbound. Pure.
import { posix } from 'node:path';

/** A name PATH could find: no slash, not `.`/`..`, not an option, not a number, not over NAME_MAX. */
function pathName(w: string): boolean {
  return w !== '' && w !== '.' && w !== '..' && !w.includes('/') && !w.startsWith('-') && !/^[0-9]+$/.test(w) && w.length <= 255;
}

/** A word the shell could look up in PATH: options and numbers too (`-zcli`, `123` can be commands: round-28 08). */
function commandName(w: string): boolean {
  return w !== '' && w !== '.' && w !== '..' && !w.includes('/') && w.length <= 255;
}

/**
 * A word with a pattern character (`mycl[i]`, `myc*`) as a RegExp over names, or null: the
 * shell expands it against the files of its folder, and a match there may be the name PATH
 * then finds, so every PATH name it matches counts (round-28 08).
 */
export function wordPattern(word: string): RegExp | null {
  if (!/[*?[]/.test(word)) return null;
  let re = '';
  for (let i = 0; i < word.length; i++) {
    const c = word[i]!;
    if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[' && /^\[(?:!|\^)?[^\]]*\[[:=.]/.test(word.slice(i))) {
      // A class, an equivalence class or a collating symbol inside (`[[:alpha:]]`, `[[=d=]]`,
      // `[[.d.]]`: round-32 F2): read generously as any one character.
      const close = word.indexOf(']]', i);
      if (close < 0) {
        re += '.*'; // not closed as read here: anything after
        break;
      }
      re += '.';
      i = close + 1;
    } else if (c === '[') {
      const close = word.indexOf(']', i + 2);
      if (close < 0) {
        re += '\\[';
        continue;
      }
      let body = word.slice(i + 1, close);
      const negated = body.startsWith('!') || body.startsWith('^');
      if (negated) body = body.slice(1);
      re += `[${negated ? '^' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
      i = close;
    } else re += c.replace(/[.+^${}()|\\\]]/g, '\\$&');
  }
  try {
    return new RegExp(`^${re}$`, 's');
  } catch {
    return /^/s; // not understood: every name counts
  }
}

/**
 * The words of `check` that the shell could look up as commands: split at blanks and
 * operators, with quotes and backslashes taken out (`\mycli`, `my""cli`: round-27 09), and also
 * each part of an assignment or expansion (`X=1 mycli`, `${x:-mycli}`).
 */
export function commandWords(check: string): string[] {
  const words = new Set<string>();
  for (const token of check.split(/[\s;&|()<>`]+/)) {
    const plain = token.replace(/\\(.)/gs, '$1').replace(/["']/g, '');
    // A brace group (`my{cli,}`, `t{1..3}`) is read as `*`: a pattern over every name it may expand to.
    const braces = bracesAsPatterns(plain);
    for (const w of [plain, ...(braces === plain ? [] : [braces]), ...plain.split(/[=${}]+/), ...plain.split(/[=${}:?+#%-]+/)]) if (commandName(w)) words.add(w);
  }
  return [...words];
}

/**
 * `word` with every brace group (`{a,b}`, `{1..3}`, nested `{{a,b},c}`: round-31 02) read as
 * `*`, a pattern over every name it may expand to.
 */
export function bracesAsPatterns(word: string): string {
  let out = word;
  for (let next = out.replace(/\{[^{}]*\}/g, '*'); next !== out; next = out.replace(/\{[^{}]*\}/g, '*')) out = next;
  return out;
}

/**
 * The words of `check` written as absolute paths (quotes and backslashes taken out), which run
 * a file by its path, and each folder of a list assigned in it (`PATH=/out/d:$PATH mycli`,
 * `env PATH=/out/d:/usr/bin …`: round-31 01).
 */
export function absoluteWords(check: string, home: string | null = null): string[] {
  const words = new Set<string>();
  // `$HOME/…`, `${HOME}/…` and a leading `~/` name the same folders as the home's own path (round-32 F1).
  const homed = (w: string) => (home === null || !home.startsWith('/') ? w : w.replace(/^(?:\$\{HOME\}|\$HOME(?![A-Za-z0-9_])|~(?=\/|$))/, home));
  for (const token of check.split(/[\s;&|()<>`]+/)) {
    const plain = token.replace(/\\(.)/gs, '$1').replace(/["']/g, '');
    for (const raw of [plain, ...plain.split('=').slice(1), ...plain.split(/[=:]/).slice(1)]) {
      const w = homed(raw);
      if (w.startsWith('/') && w.length <= 4096) words.add(w);
    }
  }
  return [...words];
}

/**
 * The bare names a CHECK reads with `.` or `source` (`. suite.sh`), or gives a shell as its
 * script (`bash run.sh`: bash looks in PATH when the folder has none): found through PATH,
 * executable or not (round-25 F4, round-26 01). Only the folder the work lives in relies on
 * this reading (path-bound.ts binds other PATH folders whole). Read generously: a name too
 * many only binds one more file.
 */
export function sourcedNames(check: string): string[] {
  const names = new Set<string>();
  // Quotes and backslashes taken out (`sh -c '. x.sh'`, `"." x.sh`, `\. x.sh`: round-27 08): after
  // `.`, `source` or a shell's name, every later word of the same simple command is a name
  // (`. -- x.sh`, `bash -o errexit x.sh`).
  for (const segment of check.split(/[;&|()<>`{}\n]+/)) {
    let reading = false;
    for (const token of segment.split(/\s+/)) {
      const word = token.replace(/\\(.)/gs, '$1').replace(/["']/g, '');
      if (reading && pathName(word)) names.add(word);
      if (word === '.' || word === 'source' || /^(?:r?ba|da|z|k|mk)?sh$/.test(word.slice(word.lastIndexOf('/') + 1))) reading = true;
    }
  }
  return [...names];
}

/** What checkPathEntries finds: the folders, and an entry it cannot place (one relative to a folder a `cd` may have moved). */
export interface CheckPathEntries {
  entries: string[];
  moved: string | null;
  /** Entries as written that this reading cannot place (`$(pwd)/bin`, `$T` after `read T`): nothing there is bound. */
  unread: string[];
}

/**
 * The folders a CHECK puts on its own PATH (`PATH=tools:$PATH x`, `env PATH=$HOME/p/bin x`,
 * `export PATH=$PWD/bin:$PATH`), absolute, where they are plain: a variable as the
 * environment `env` gives it (`$HOME`, `/home/$USER/p`; empty when unset), or, one the CHECK sets itself, as
 * every value it may have there (checkSetValues: `T=cli; PATH=$T:$PATH`), `~` as the home,
 * `$PWD`, `${PWD}`, `~+`, an empty entry and a relative one in the check's folder `cwd`.
 * Those inside the repository are bound as the environment's PATH folders are (round-33 F4).
 * An entry made at run time any other way (`$(pwd)/bin`, `read T`) is not read here (the
 * screen stops there). One relative to the check's folder in a CHECK that changes folder
 * (`cd cli && PATH=.:$PATH x`, `cd x; T=cli; PATH=$T:$PATH`) cannot be placed: `moved` names it.
 */
export function checkPathEntries(check: string, env: Readonly<Record<string, string | undefined>>, cwd: string): CheckPathEntries {
  if (!check.includes('PATH')) return { entries: [], moved: null, unread: [] };
  const out = new Set<string>();
  const unread = new Set<string>();
  let moved: string | null = null;
  // `env -C dir`, `--chdir`: a folder change too (round-34 F2); read with quotes and
  // backslashes taken out (`\cd`, `c\d`, `c''d`: round-37 F3), and `$'…'` (whose escapes
  // can spell anything) as one.
  const unquoted = check.replace(/\\(.)/gs, '$1').replace(/["']/g, '');
  const changesFolder = check.includes("$'") || /(?:^|[\s;&|()`])(?:cd|pushd|popd|-C|--chdir)(?=$|[\s;&|()`=])/.test(unquoted);
  const home = env.HOME ?? '';
  const reading = new Set<string>();
  const values = (name: string): string[] | null => {
    if (name === 'PWD' || reading.has(name) || reading.size >= MAX_NESTED) return null;
    // Unset, a variable expands to nothing (`PATH=$NOPE:$PATH` puts the check's folder first).
    const given = env[name] ?? '';
    const set = checkSetValues(check, name);
    if (set === 'unset') return [given];
    if (set === null) return null;
    // A value that names other variables (`T=$U/bin`) is read through theirs.
    reading.add(name);
    try {
      const out: string[] = [];
      for (const v of set.values) {
        const expanded = v.includes('$') ? expandVariables(v, values) : [v];
        if (expanded === null) return null;
        out.push(...expanded);
        if (out.length > MAX_READINGS) return null;
      }
      if (!set.always) out.push(given);
      return [...new Set(out)];
    } finally {
      reading.delete(name);
    }
  };
  for (const token of check.split(/[\s;&|()<>`]+/)) {
    const plain = token.replace(/\\(.)/gs, '$1').replace(/["']/g, '');
    // `${PATH:+:$PATH}` (the idiom that adds no empty entry) is `:$PATH` where PATH is set.
    const m = /^PATH(\+?)=(.*)$/s.exec(plain.replace(/\$\{PATH:?\+:\$(?:PATH|\{PATH\})\}/g, ':$PATH').replace(/\$\{PATH:?\+\$(?:PATH|\{PATH\}):\}/g, '$PATH:'));
    if (m === null) continue;
    // `${PATH:+:$PATH}`, `${PWD:-/x}`, `$(pwd)`: not plain, so not split into entries (a `+`
    // there is no folder: round-34 F2); the screen stops at such a PATH.
    // The word as written, past a parenthesis or backquote the token was cut at (`$(pwd)/bin`).
    const written = /PATH\+?=([^\s;&|<>]*)/.exec(check.slice(Math.max(0, check.indexOf(token))))?.[1] ?? m[2]!;
    const substituted = /\$\(|`/.test(written);
    if (substituted) unread.add(written);
    if (/\$(?:\{(?![A-Za-z_]\w*(?::?[-+][^$`{}]*)?\})|\()/.test(m[2]!) || token.includes('`')) {
      unread.add(written);
      continue;
    }
    // `PATH+=:tools` appends to PATH: its first colon is the separator, not an empty entry.
    for (const raw of entriesOf(m[1] === '+' ? m[2]!.replace(/^:/, '') : m[2]!)) {
      if (raw === '$PATH' || raw === '${PATH}') continue;
      // Where the shell stands (`$PWD`, `~+`) is relative: it moves with a `cd` as `.` does.
      let text = raw.replace(/^(?:\$\{PWD\}|\$PWD(?![A-Za-z0-9_])|~\+(?=\/|$))/, '.');
      if (home.startsWith('/')) text = text.replace(/^~(?=\/|$)/, home);
      const readings = expandVariables(text, values);
      if (readings === null) {
        unread.add(raw);
        continue;
      }
      // A value may hold colons of its own (`T=a:b`): each part is an entry.
      for (const part of readings.flatMap((r) => r.split(':'))) {
        if (/[$`~]/.test(part)) {
          // (The `$` a `$(…)` was cut at is named whole above.)
          if (!(substituted && raw.endsWith('$'))) unread.add(raw);
          continue;
        }
        if (!part.startsWith('/') && changesFolder) {
          moved ??= raw || '(empty: the working directory)';
          continue;
        }
        out.add(part.startsWith('/') ? part : posix.join(cwd, part));
      }
    }
  }
  return { entries: [...out], moved, unread: [...unread] };
}

/** A PATH value split at its colons, not at one inside `${…}` (`${T:-x}:bin`). */
function entriesOf(value: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    if (value[i] === '{' && value[i - 1] === '$') depth++;
    else if (value[i] === '}' && depth > 0) depth--;
    else if (value[i] === ':' && depth === 0) {
      out.push(value.slice(start, i));
      start = i + 1;
    }
  }
  out.push(value.slice(start));
  return out;
}

/** At most this many readings of one PATH entry with variables the CHECK sets; more is not read. */
const MAX_READINGS = 16;

/** At most this many variables read through one another (`T=$U`, `U=$V`); deeper, or a loop, is not read. */
const MAX_NESTED = 4;

/** `text` with each `$NAME` / `${NAME}` read as each value `values` gives (every combination), or null when one has none. */
function expandVariables(text: string, values: (name: string) => string[] | null): string[] | null {
  let readings = [''];
  let at = 0;
  // `${T-cli}` and `${T:-cli}` are T's value or cli; `${T+cli}` and `${T:+cli}` cli or nothing (round-37 F5).
  for (const m of text.matchAll(/\$\{([A-Za-z_]\w*)(?:(:?[-+])([^$`{}]*))?\}|\$([A-Za-z_]\w*)/g)) {
    const operator = m[2]?.slice(-1);
    const named = operator === '+' ? [] : values((m[1] ?? m[4])!);
    if (named === null) return null;
    const options = operator === undefined ? named : operator === '-' ? [...named, m[3]!] : [m[3]!, ''];
    const before = text.slice(at, m.index);
    readings = readings.flatMap((r) => options.map((o) => r + before + o));
    if (readings.length > MAX_READINGS) return null;
    at = m.index + m[0].length;
  }
  return readings.map((r) => r + text.slice(at));
}

/**
 * The value an assignment gives (`text` starts after its `=`), as the shell reads the word:
 * quotes taken out (`T='c li'`, `T="cli"`), a backslash's character kept (`T=c\li`), a
 * variable kept as `$NAME` for the caller to read (`T=$U/bin`); null for what only running it
 * can tell (`$(…)`, a backquote, `${…}` with an operator, `$1`) and for an array (`T=(cli)`,
 * whose `$T` is its first element: round-37 F4).
 */
function assignedValue(text: string): { value: string; length: number } | null {
  if (text.startsWith('(')) return null;
  let out = '';
  let i = 0;
  const variable = () => {
    const m = /^\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))/.exec(text.slice(i));
    if (m === null) return false;
    out += `\${${(m[1] ?? m[2])!}}`;
    i += m[0].length;
    return true;
  };
  while (i < text.length && !/[\s;&|()<>]/.test(text[i]!)) {
    const c = text[i]!;
    if (c === '\\') {
      if (i + 1 >= text.length) return null;
      out += text[i + 1];
      i += 2;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) return null;
      out += text.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; ) {
        if (text[i] === '$') {
          if (!variable()) return null;
        } else if (text[i] === '`') return null;
        else if (text[i] === '\\' && i + 1 < text.length && '$`"\\\n'.includes(text[i + 1]!)) {
          out += text[i + 1];
          i += 2;
        } else out += text[i++];
      }
      if (i >= text.length) return null;
      i++;
    } else if (c === '$') {
      if (!variable()) return null;
    } else if (c === '`') return null;
    else {
      out += c;
      i++;
    }
  }
  return { value: out, length: i };
}

/**
 * The variables the CHECK sets before anything else runs: statements of assignments only
 * (after export, local, declare, readonly or typeset) at its very start, each ended by a
 * `;`, `&&` or newline (`T=cli; U='a b' && …`).
 */
function leadingAssignments(check: string): Set<string> {
  const names = new Set<string>();
  for (let i = 0; ; ) {
    const found: string[] = [];
    for (;;) {
      const m = /^\s*(?:(?:export|local|declare|readonly|typeset)\s+)?([A-Za-z_]\w*)=/.exec(check.slice(i));
      if (m === null) break;
      const v = assignedValue(check.slice(i + m[0].length));
      if (v === null) return names;
      found.push(m[1]!);
      i += m[0].length + v.length;
    }
    const end = found.length === 0 ? null : /^[ \t]*(?:;|&&|\n)/.exec(check.slice(i));
    if (end === null) return names;
    for (const n of found) names.add(n);
    i += end[0].length;
  }
}

/** What checkSetValues finds for a variable the CHECK sets by plain assignments only. */
interface CheckSetValues {
  /** Every value a plain assignment gives it (`T=cli`, `export T="cli"`, `T= `: empty). */
  values: string[];
  /** The CHECK starts by setting it (`T=cli; …`, `export T=cli && …`): the environment's value never reaches a later use. */
  always: boolean;
}

/**
 * How the CHECK sets variable `name`: 'unset' when it never does; the values of its plain
 * assignments when every place the name appears is one (`T=cli`) or a use (`$T`, `${T}`);
 * null when it is set any other way (`read T`, `for T in`, `T+=x`, `T=$(pwd)`, `${T:=x}`,
 * `printf -v T`, `unset T`, `declare -n T`), which only running the CHECK can tell.
 */
export function checkSetValues(check: string, name: string): CheckSetValues | 'unset' | null {
  // A name reference (`declare -n T=PATH`) is another variable by that name: not read here.
  if (/(?:^|[\s;&|(])(?:declare|typeset|local)\s+(?:-\w+\s+)*-\w*n/.test(check)) return null;
  const values: string[] = [];
  let assigned = false;
  for (const m of check.matchAll(new RegExp(`(?<![A-Za-z0-9_])${name}(?![A-Za-z0-9_])`, 'g'))) {
    const at = m.index;
    const before = check.slice(0, at);
    if (before.endsWith('$') || (before.endsWith('${') && /^(?:\}|:?[-+])/.test(check.slice(at + name.length)))) continue;
    // Anything else that may set it (`read T`, `T+=x`, `${T:=x}`) is not read here. A `T=x`
    // that is no assignment (`echo T=x`) adds a reading that binds more, never less.
    if (check[at + name.length] !== '=') return null;
    const value = assignedValue(check.slice(at + name.length + 1));
    if (value === null) return null;
    values.push(value.value);
    assigned = true;
  }
  if (!assigned) return 'unset';
  return { values: [...new Set(values)], always: leadingAssignments(check).has(name) };
}
