// A small matcher for DEPENDS globs (*, **, ?, [...], {a,b}), used to tell whether a glob
// would cover a script that does not exist yet. What exists is matched by fast-glob in the
// command; this only decides coverage of paths fast-glob could not see. Pure.

const cache = new Map<string, RegExp>();

export function globMatches(glob: string, path: string): boolean {
  let re = cache.get(glob);
  if (!re) {
    re = globToRegExp(glob);
    cache.set(glob, re);
  }
  return re.test(path);
}

/** dot: true semantics (a '*' matches dot files too), '/' only crossed by '**'. */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    const segmentStart = i === 0 || glob[i - 1] === '/';
    if (c === '*' && glob[i + 1] === '*' && segmentStart && (glob[i + 2] === '/' || i + 2 === glob.length)) {
      // '**/' is zero or more directories; a trailing '**' is everything below.
      re += glob[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += glob[i + 2] === '/' ? 2 : 1;
    } else if (c === '*') {
      re += '[^/]*';
      while (glob[i + 1] === '*') i++;
    } else if (c === '?') {
      re += '[^/]';
    } else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end === -1) {
        re += '\\[';
      } else {
        const body = glob.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\');
        re += `[${body}]`;
        i = end;
      }
    } else if (c === '{') {
      braces++;
      re += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      re += ')';
    } else if (c === ',' && braces > 0) {
      re += '|';
    } else if (c === '\\' && i + 1 < glob.length) {
      re += escape(glob[++i]!);
    } else {
      re += escape(c);
    }
  }
  re += ')'.repeat(braces);
  try {
    return new RegExp(`^${re}$`, 's');
  } catch {
    return /(?!)/; // an unusable glob covers nothing
  }
}

function escape(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}
