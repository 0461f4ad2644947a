// The repository files a module name on a command line may load. An interpreter finds a
// module by name, not by path: `python3 -m tests.run` runs `tests/run.py` from the working
// folder (and `tests/__init__.py` first), `pytest -p plugin` and `pylint --load-plugins=a,b`
// import modules, `perl -Ilib -MFoo::Bar` loads `lib/Foo/Bar.pm`, `ruby -Ilib -rfoo` loads
// `lib/foo.rb`. Each name gives the paths it may load, relative to the command's folder; the
// caller names those that exist (unbound-scripts.ts namedFiles). Pure.

/** A Python dotted name, a Perl `::` name or a Ruby feature name. */
const MODULE_NAME = /^[A-Za-z_][\w]*(?:(?:\.|::|\/)[A-Za-z_][\w]*)*$/;

/** Options whose value is a Python module (`-m`, `--module`, pytest's `-p`, pylint's `--load-plugins`). */
const PYTHON_MODULE_OPTION = /^(?:-m|--module|-p|--load-plugins)$/;
const PYTHON_MODULE_ATTACHED = /^(?:-m|-p)(.+)$|^(?:--module|--load-plugins)=(.*)$/;
/** Perl's `-M`/`-m` and Ruby's `-r`: a module or feature, searched in the `-I` folders. */
const LIBRARY_OPTION = /^-[Mmr]$/;
const LIBRARY_ATTACHED = /^-[Mmr]-?([A-Za-z_][\w:]*)/;
const INCLUDE_OPTION = /^-I(.*)$/;

/**
 * The paths the module names in one command's words may load, relative to its folder:
 * the files of every candidate, existing or not (the caller keeps those on disk).
 */
export function moduleFiles(words: readonly string[]): string[] {
  const python: string[] = [];
  const library: string[] = [];
  const includes: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const next = words[i + 1];
    const include = INCLUDE_OPTION.exec(w);
    if (include) {
      const dir = include[1] !== '' ? include[1]! : next;
      if (dir !== undefined) includes.push(dir);
      if (include[1] === '') i++;
      continue;
    }
    if (PYTHON_MODULE_OPTION.test(w) || LIBRARY_OPTION.test(w)) {
      if (next === undefined) continue;
      // -m is Python's module and Perl's; -M Perl's; -r Ruby's (node's -r is a path: scripts.ts).
      if (w !== '-M' && w !== '-r') python.push(...next.split(','));
      // `-M 'Foo qw(run)'`, `-MFoo=run`: the module is the first word.
      if (LIBRARY_OPTION.test(w)) library.push(next.replace(/^-/, '').split(/[\s=]/)[0]!);
      // `python3 -m runpy tests.x`: runpy runs the module named after it; `-m unittest
      // tests.test_a`: unittest imports the modules it is given (round-16 A6).
      if ((w === '-m' || w === '--module') && next === 'runpy') {
        const target = words.slice(i + 2).find((x) => !x.startsWith('-'));
        if (target !== undefined) python.push(target);
      }
      if ((w === '-m' || w === '--module') && next === 'unittest') {
        // `tests.test_a.T.test_x`: a class and a method after the module; each prefix may be it.
        for (const x of words.slice(i + 2)) {
          if (x.startsWith('-') || x === 'discover') continue;
          const parts = x.replace(/\.py$/, '').split('.');
          for (let n = parts.length; n > 0; n--) python.push(parts.slice(0, n).join('.'));
        }
      }
      i++;
      continue;
    }
    const attached = PYTHON_MODULE_ATTACHED.exec(w);
    if (attached) python.push(...(attached[1] ?? attached[2] ?? '').split(','));
    const lib = LIBRARY_ATTACHED.exec(w);
    if (lib) library.push(lib[1]!);
  }
  const paths: string[] = [];
  for (const name of python) {
    if (!MODULE_NAME.test(name) || name.includes('::') || name.includes('/')) continue;
    const parts = name.split('.');
    // Importing a.b.c runs a/__init__.py and a/b/__init__.py first.
    for (let n = 1; n < parts.length; n++) paths.push(`${parts.slice(0, n).join('/')}/__init__.py`);
    const path = parts.join('/');
    // An extension module (`run.cpython-312-x86_64-linux-gnu.so`) or a sourceless `run.pyc`
    // beside it is imported instead of the source: a pattern, listed by the caller.
    paths.push(`${path}.py`, `${path}/__init__.py`, `${path}/__main__.py`, `${path}.pyc`, `${path}.so`, `${path}.*.so`);
  }
  for (const name of library) {
    if (!MODULE_NAME.test(name)) continue;
    const path = name.replace(/::/g, '/');
    for (const dir of includes.length > 0 ? includes : ['.']) {
      const at = dir === '.' || dir === '' ? '' : `${dir.replace(/\/+$/, '')}/`;
      // perl loads a compiled Foo.pmc before Foo.pm (round-16 A7).
      paths.push(`${at}${path}.pm`, `${at}${path}.pmc`, `${at}${path}.rb`);
    }
  }
  return [...new Set(paths)];
}
