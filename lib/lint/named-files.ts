// The approval screen's UNBOUND names beyond the scripts a CHECK runs (unbound-scripts.ts):
// every repository file the CHECK names anywhere, what its shell patterns match, the code in
// the folders it gives a runner, the modules it names, what node finds through package.json,
// and what runners read by themselves (an npm script's commands, a makefile, a configuration).
// Pure: the disk is the caller's (NamedFilesDisk).
import { isAbsolute, posix } from 'node:path';
import { globMatches } from './glob.js';
import { implicitFiles } from './implicit-files.js';
import { inlineShellWord } from './inline-shell.js';
import { moduleFiles } from './module-names.js';
import { BUILD_INDIRECTION, makeRecipes } from './makefile-text.js';
import { mayBePackageOwn, packageTargets } from './package-specifiers.js';
import { decodeJsonEscapes, JS_CONFIGURATION, MAX_COMPLETED, NODE_EXTENSIONS, nodeModuleSpecifiers, nodePaths } from './node-paths.js';
import { programName, unwrapped, withoutKeywords } from './commands.js';
import { absoluteInRepository, isLexicallyInside, repositoryDir } from './repository-paths.js';
import { runnerOf } from './runners.js';
import { inDirectory, readsAsCodeFile, walkCommands, type PathResolver } from './scripts.js';
import { parseShellList, type ShellList, type SimpleCommand } from './shell-list.js';
import { isPlainObject } from '../json/hostile.js';

/**
 * Every repository file the CHECK names, wherever it names it, that DEPENDS does not bind:
 * an argument, an option's value (`--filter=scripts/count`), a word inside a variable's value
 * or a quoted command line (`TAR_OPTIONS=--use-compress-program=x`, `zip -TT "sh x.sh"`), a
 * redirection (`sqlite3 < t.txt`). The list of programs and options
 * that run a file has no end (attack rounds 13 and 14: `python3 -m doctest t.txt`, `vim -u
 * vimrc`, `ninja -f build.ninja`, `git ls-remote --upload-pack=x`, `sdiff --diff-program=x`):
 * a file the CHECK names is shown unless DEPENDS binds it. Not INPUTS: the approval screen
 * does not show them, and a ledger's author could call the file a program runs data there.
 * `isFile`: whether a repository path is a file there now (the caller's I/O).
 */
export function namedFiles(
  check: string,
  root: string,
  cwd: string,
  matched: readonly string[],
  globs: readonly string[] | null,
  disk: NamedFilesDisk,
): NamedFiles {
  const { isFile, resolve, expand, readText } = disk;
  const workdir = repositoryDir(root, cwd);
  if (workdir === null) return { files: [], unread: null };
  const bound = new Set(matched);
  // Where a bound on the work left text unread: the screen says so (a name past it is not shown).
  let unread: string | null = null;
  const covered = (p: string) => bound.has(p) || (globs ?? []).some((g) => globMatches(g, p));
  const inRepository = resolve ?? inDirectory;
  const found = new Set<string>();
  const considered = new Set<string>();
  // `listed`: a name a folder listing found (a pattern's match), read as it is: a file may be
  // named `z\e[8m.sh` or `-x` (round-18 F1).
  const consider = (token: string, dir: string, listed = false) => {
    if (unread !== null && found.size >= MAX_NAMED_FILES) return;
    // A listed name starting with `~` is a folder of that name, not the shell's home.
    const t = listed ? (token.startsWith('~') ? `./${token}` : token) : token.replace(/^@/, '');
    // Not a path: an option, a variable, a pattern, a URL's scheme, a flag's bare word.
    if (t === '' || t === '.' || t === '..' || (!listed && (t.startsWith('-') || t.startsWith('~') || /[$*?[\]]/.test(t)))) return;
    // Each word once per folder: a text that repeats one word 50,000 times costs one lookup (round-19 F5).
    const seenKey = `${dir}\u0000${t}`;
    if (considered.has(seenKey)) return;
    considered.add(seenKey);
    // Installed packages are not the repository's code (named neither as scripts: lint's runner rules).
    if (/(?:^|\/)node_modules\//.test(t)) return;
    let path: string | null;
    if (isAbsolute(t)) {
      const inside = absoluteInRepository(root, t);
      // In only once its `..` is read as text (`/repo/../repo/x.sh`): as written, whatever is there.
      if (inside === null && isLexicallyInside(root, t)) found.add(t);
      if (inside === null) return;
      path = inRepository(inside, '.');
    } else {
      path = inRepository(t, dir);
    }
    if (path === null || path === '.' || found.has(path) || covered(path) || !isFile(path)) return;
    if (found.size < MAX_NAMED_FILES) found.add(path);
    else unread ??= `more than ${MAX_NAMED_FILES} files named`;
  };
  let patterns = 0;
  const matchesOf = (pattern: string, dir: string, withFolders: boolean) => {
    if (!expand || !PATTERN.test(pattern) || pattern.startsWith('-') || pattern.includes('$') || pattern.startsWith('~')) return;
    if (++patterns > MAX_PATTERNS) {
      unread ??= `more than ${MAX_PATTERNS} shell patterns`;
      return;
    }
    let from = dir;
    let relative = pattern;
    if (isAbsolute(pattern)) {
      const inside = absoluteInRepository(root, pattern);
      if (inside === null) return;
      [from, relative] = ['.', inside];
    }
    const matches = expand(relative, from, withFolders);
    if (matches === null) unread ??= `a pattern it cannot list (${relative.slice(0, 40)})`;
    else for (const m of matches) (m.endsWith('/') ? folderFiles(m, from, true) : consider(m, from, true));
  };
  // The files of code in a folder the CHECK gives a runner (the folder itself cannot be bound).
  const folderFiles = (token: string, dir: string, listed = false) => {
    const t = token.replace(/\/+$/, '');
    if (t === '' || t === '.' || t === '..' || (!listed && (t.startsWith('-') || t.startsWith('~') || /[$*?[\]{}]/.test(t) || t.includes('...')))) return;
    if (/(?:^|\/)node_modules(?:\/|$)/.test(t) || isAbsolute(t)) return;
    // A listed folder's name is matched as written: its pattern characters escaped.
    const matches = expand!(`${listed ? t.replace(/[\\*?[\]{}]/g, '\\$&') : t}/**/*`, dir);
    if (matches === null) unread ??= `a folder with too many files to list (${t.slice(0, 40)})`;
    else for (const m of matches) if (readsAsCodeFile(m.replace(/[*?[\]{}]/g, '_'))) consider(m, dir, true);
  };
  // The package.json nearest above the folder (node's package scope), and what it maps the name to.
  const packageOwn = (specifier: string, dir: string) => {
    if (!mayBePackageOwn(specifier)) return;
    for (let at = dir; ; at = at === '.' || !at.includes('/') ? '.' : at.slice(0, at.lastIndexOf('/'))) {
      const file = at === '.' ? 'package.json' : `${at}/package.json`;
      if (isFile(file)) {
        const pkg = jsonOf(file);
        if (pkg === undefined) {
          // It may map the name: what it says cannot be read here (too big, not JSON, not a file).
          consider(file, '.');
          unread ??= `a package.json it cannot read (${file.slice(0, 60)})`;
          return;
        }
        const mapped = packageTargets(specifier, pkg);
        // Its own name or a `#` import: package.json chooses the file, and is named with it.
        if (mapped !== null || specifier.startsWith('#')) consider(file, '.');
        if (mapped?.cut) unread ??= `a package.json entry too deep or too long to read (${specifier.slice(0, 40)})`;
        for (const t of mapped?.targets ?? []) consider(t, at);
        return;
      }
      if (at === '.') return;
    }
  };
  // Node's resolution of a path: the file, then with .js .json .node (.cjs .mjs for the entry),
  // then a folder's package.json `main` and its index.
  // `literal`: a path from package.json's `main`, a file name as it is (`*.js`, `~/t.js`, an
  // escape: round-19 N1-N3), not a word of the shell.
  const nodeEntry = (path: string, dir: string, depth: number, literal = false) => {
    if (isAbsolute(path)) {
      const inside = absoluteInRepository(root, path);
      if (inside !== null) nodeEntry(inside, '.', depth, literal);
      return;
    }
    const base = path === '.' || path === './' ? '.' : path.replace(/\/+$/, '');
    if (base === '' || (!literal && /[$*?[\]]/.test(base)) || /(?:^|\/)node_modules(?:\/|$)/.test(base)) return;
    const join = (name: string) => (base === '.' ? name : `${base}/${name}`);
    for (const ext of NODE_EXTENSIONS) consider(`${base}${ext}`, dir, literal);
    const pkgFile = join('package.json');
    const inRepo = inRepository(pkgFile, dir);
    if (inRepo !== null && isFile(inRepo)) {
      consider(pkgFile, dir);
      const pkg = jsonOf(inRepo);
      const main = isPlainObject(pkg) && Object.hasOwn(pkg, 'main') ? pkg.main : undefined;
      if (pkg === undefined) unread ??= `a package.json it cannot read (${inRepo.slice(0, 60)})`;
      else if (typeof main === 'string' && main !== '' && depth < 2) {
        // Node resolves `main` as text (`./lib/../t.js` is t.js, with or without lib/: round-20 G3).
        nodeEntry(posix.normalize(join(main)), dir, depth + 1, true);
      }
    }
    for (const index of ['index.js', 'index.json', 'index.node', 'index.cjs', 'index.mjs']) consider(join(index), dir, literal);
  };
  // Each file read and parsed once: a CHECK that runs `npm test` 25,000 times reads package.json once (round-20 G5).
  const texts = new Map<string, string | undefined>();
  const textOf = (file: string): string | undefined => {
    if (!texts.has(file)) texts.set(file, readText?.(file));
    return texts.get(file);
  };
  const parsedJson = new Map<string, unknown>();
  const jsonOf = (file: string): unknown => {
    if (parsedJson.has(file)) return parsedJson.get(file);
    const value = parseJson(file);
    parsedJson.set(file, value);
    return value;
  };
  const parseJson = (file: string): unknown => {
    const text = textOf(file);
    if (text === undefined) return undefined;
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  };
  // What a runner reads by itself, and what that names in turn (round-16 H2).
  let definitions = 0;
  const scanned = new Set<string>();
  const runnerFiles = (cmd: SimpleCommand, at: string, nesting: number) => {
    for (const implicit of implicitFiles(cmd)) {
      const dir = posix.normalize(at === '.' ? implicit.dir : `${at}/${implicit.dir}`);
      if (implicit.unread !== null) unread ??= implicit.unread;
      for (const f of implicit.files) {
        consider(f, dir);
        // A makefile's includes and recipes, a configuration's extends and setup files: named by their text.
        if (implicit.scan) scanText(dir === '.' ? f : `${dir}/${f}`, nesting, implicit.build, implicit.build ? dir : undefined);
      }
      // Patterns are listed inside the repository only (`--rulesdir ../x` is not its code).
      if (!isAbsolute(dir) && dir !== '..' && !dir.startsWith('../')) for (const pattern of implicit.patterns) matchesOf(pattern, dir, false);
      if (implicit.scripts.length > 0) packageScripts(dir, implicit.scripts, nesting);
    }
  };
  // The commands of package.json's scripts, read as the CHECK is (npm runs them with sh).
  const scriptsRead = new Set<string>();
  const packageScripts = (dir: string, names: readonly string[], nesting: number) => {
    const file = dir === '.' ? 'package.json' : `${dir}/package.json`;
    if (!isFile(file)) {
      if (dir !== '.') unread ??= `an npm workspace it cannot find (${dir.slice(0, 60)})`;
      return;
    }
    // `.npmrc` can choose another workspace (`workspace=packages/a`) whose scripts run instead (round-17).
    const npmrc = textOf(dir === '.' ? '.npmrc' : `${dir}/.npmrc`);
    if (npmrc !== undefined && /^\s*workspaces?\s*=/m.test(npmrc)) unread ??= 'a workspace chosen in .npmrc';
    const pkg = jsonOf(file);
    const scripts = isPlainObject(pkg) && Object.hasOwn(pkg, 'scripts') ? pkg.scripts : undefined;
    if (pkg === undefined || (scripts !== undefined && !isPlainObject(scripts))) {
      unread ??= `a package.json it cannot read (${file.slice(0, 60)})`;
      return;
    }
    for (const name of names) {
      // Each script once: a script that many others run (or a cycle) is read the first time.
      const key = `${dir}\u0000${name}`;
      if (scriptsRead.has(key)) continue;
      scriptsRead.add(key);
      const script = scripts !== undefined && Object.hasOwn(scripts, name) ? scripts[name] : undefined;
      // Without a start script, `npm start` runs `node server.js` (round-17 A3).
      // So does an empty or non-string one (npm tests it for truth: round-19 P1).
      if (name === 'start' && (typeof script !== 'string' || script === '')) consider('server.js', dir);
      if (typeof script !== 'string') continue;
      // `node $npm_package_config_e`, `npm run $X`, `run-s t:*`: a script chosen at run time (round-17).
      if (NPM_SCRIPT_INDIRECTION.test(script)) unread ??= `the npm script ${name.slice(0, 40)}: its variables or the scripts it runs by pattern (read it yourself)`;
      if (nesting >= MAX_NESTING || script.length > MAX_CHECK_SCANNED) unread ??= `an npm script nested or long past reading (${name.slice(0, 40)})`;
      else {
        visit(parseShellList(script), dir, 0, nesting + 1);
        for (const token of script.split(TOKEN_BREAK)) consider(token, dir);
      }
    }
  };
  // A definition file's text, token by token, and a makefile's includes the same way.
  // `workdir`: where a build file's names lead, make's folder (`make -f sub/Makefile` includes
  // ./rules.mk: round-19 M2); a configuration's are relative to its own folder.
  const scanText = (file: string, nesting: number, build: boolean, workdir?: string) => {
    if (scanned.has(file) || !isFile(file)) return;
    scanned.add(file);
    if (++definitions > MAX_DEFINITIONS || nesting >= MAX_NESTING) {
      unread ??= `more definition files than it reads (${file.slice(0, 60)})`;
      return;
    }
    const text = textOf(file);
    if (text === undefined) {
      unread ??= `a file it cannot read (${file.slice(0, 60)})`;
      return;
    }
    const dir = workdir ?? (file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '.');
    // A JavaScript tool's configuration names modules as node finds them (`require: test/setup`,
    // `preset: "./pre"`, jest's `<rootDir>/setup.js`, the configuration's folder unless it sets
    // another rootDir): completed as node completes them (round-17 jest, mocha).
    const js = !build && JS_CONFIGURATION.test(file.slice(file.lastIndexOf('/') + 1));
    let body = text.slice(0, MAX_DEFINITION_SCANNED);
    if (js) {
      if (/["']?\brootDir["']?\s*:/.test(body)) unread ??= `${file.slice(0, 60)}: its rootDir (read it yourself)`;
      body = body.replace(/<rootDir>\/?/g, './');
    }
    let completed = 0;
    for (const token of body.split(TOKEN_BREAK)) {
      consider(token, dir);
      if (!js || !token.includes('/') || token.includes('://') || isAbsolute(token)) continue;
      if (++completed > MAX_COMPLETED) {
        unread ??= `more module paths than it completes (${file.slice(0, 60)})`;
        continue;
      }
      nodeEntry(token, dir, 0);
      for (const preset of ['jest-preset.js', 'jest-preset.json', 'jest-preset.cjs', 'jest-preset.mjs']) consider(`${token.replace(/\/+$/, '')}/${preset}`, dir);
    }
    if (text.length > MAX_DEFINITION_SCANNED) unread ??= `a file longer than it reads (${file.slice(0, 60)})`;
    // A makefile or a ninja file names files through variables, functions, patterns and other
    // folders (`$(S)/t.sh`, `$<`, `$(MAKE) -C sub`, `cd sub &&`, `include mk/*.mk`, `subninja`):
    // read as text, they name nothing; the screen says so (round-17).
    // `$$` is the shell's `$` in a recipe (`sh "$$PWD/t.sh"` runs the repository's t.sh): it
    // stops the reading as a variable does in a CHECK (round-20 G2).
    if (build && BUILD_INDIRECTION.test(text)) unread ??= `${file.slice(0, 60)}: its variables, patterns or other folders (read it yourself)`;
    for (const m of text.matchAll(/^[ \t]*(-?)s?include[ \t]+([^\n#]+)/gm)) {
      for (const name of m[2]!.trim().split(/\s+/)) {
        if (/[$*?[]/.test(name)) continue;
        const path = dir === '.' ? name : `${dir}/${name}`;
        // Not beside the makefile: make looks in its -I folders, which this reading does not (round-17 B8).
        if (build && m[1] === '' && !isFile(path)) unread ??= `an include it cannot find (${name.slice(0, 60)})`;
        scanText(path, nesting + 1, build, workdir);
      }
    }
    // A configuration's `extends` (tsconfig: `"./base"` is base.json), followed down its chain (round-17).
    // And a project's `references` (`tsc -b`), read the same way; JSON escapes decoded first
    // (`"ext\u0065nds"`: round-19 T1, T2).
    if (file.endsWith('.json')) {
      const json = decodeJsonEscapes(text.slice(0, MAX_DEFINITION_SCANNED));
      for (const m of json.matchAll(/"(extends|path)"\s*:\s*(\[[^\]]*\]|"[^"]*")/g)) {
        for (const v of m[2]!.matchAll(/"([^"]+)"/g)) {
          // tsc reads a backslash as a folder separator (`"sub\\base"`: round-20 G4).
          const name = v[1]!.replace(/\\/g, '/');
          if (!name.startsWith('.') && m[1] === 'extends') continue; // a package's, from node_modules
          for (const candidate of [name, `${name}.json`, `${name}/tsconfig.json`]) {
            const path = posix.normalize(dir === '.' ? candidate : `${dir}/${candidate}`);
            if (!isFile(path)) continue;
            consider(path, '.');
            scanText(path, nesting + 1, false);
          }
        }
      }
    }
    // A makefile's recipes are shell commands: read as a CHECK is (`npm test`, `sh scripts/*.sh`,
    // `cd sub && sh t.sh`; round-17 B3, B6, B7), a line continued by a backslash joined (B10).
    if (build && !file.endsWith('.ninja')) {
      const { recipes, cut } = makeRecipes(text.slice(0, MAX_DEFINITION_SCANNED));
      if (cut) unread ??= `more recipe lines than it reads (${file.slice(0, 60)})`;
      for (const recipe of recipes) visit(parseShellList(recipe), dir, 0, nesting + 1);
    }
  };
  const visit = (list: ShellList, dir: string, depth: number, nesting: number) =>
    walkCommands(list, dir, (cmd, at) => {
      const folderRunner = runsFolders(cmd);
      for (const w of [...cmd.assignments, ...cmd.words, ...cmd.redirects.flatMap((r) => (r.target ? [r.target] : []))]) {
        if (w.value.length > MAX_WORD_SCANNED) {
          unread ??= `a word longer than ${MAX_WORD_SCANNED} characters`;
          continue;
        }
        for (const token of w.value.split(TOKEN_BREAK)) consider(token, at);
        // `sh "t x.sh"`, `sh ./t\ x.sh`: one word, one name (round-19 M4).
        if (!w.dynamic && /\s/.test(w.value)) consider(w.value, at);
        // `test/[[:alpha:]].js`: a POSIX class, which the pattern listing does not read (round-17).
        if (expand && /\[\[:[a-z]+:\]/.test(w.value)) unread ??= `a pattern with a character class (${w.value.slice(0, 40)})`;
        // `node --test test/*.test.js`, `prove t/{a,b}.t`: what the pattern matches now (round-15 H2);
        // given to a runner, the folders it matches run too (`node --test t*`: round-16 H1).
        if (expand) for (const pattern of w.value.split(PATTERN_BREAK)) matchesOf(pattern, at, folderRunner);
      }
      // Modules given by name: `python3 -m tests.run`, `perl -Ilib -MFoo`, `pytest -p plugin`.
      const literal = cmd.words.map((w) => (w.dynamic ? '' : w.value));
      for (const path of moduleFiles(literal)) (path.includes('*') ? matchesOf(path, at, false) : consider(path, at));
      // `node --test test/`, `python3 -m unittest discover -s tests`, `prove t`: a runner given a
      // folder runs the code in it (round-15 H3 A7).
      if (expand && folderRunner) {
        for (const w of cmd.words.slice(1)) {
          if (!w.dynamic && w.value.length <= MAX_WORD_SCANNED) for (const token of w.value.split(TOKEN_BREAK)) folderFiles(token, at);
        }
      }
      // `node -r pkg/setup`, `node --import '#setup'`, `node -e 'require("pkg/setup")'`: a
      // module the package.json finds (round-15 H3, round-16 B9).
      if (readText) for (const specifier of nodeModuleSpecifiers(cmd)) packageOwn(specifier, at);
      // `node .`, `node scripts/t`, `node -r ./setup`: what node loads for a path written
      // without its extension, or for a folder (round-17 A2).
      for (const path of nodePaths(cmd)) nodeEntry(path, at, 0);
      // What it reads by itself: `npm test` package.json and its scripts, `make` its makefile.
      runnerFiles(cmd, at, nesting);
      const inner = depth === 0 ? inlineShellWord(cmd) : null;
      if (inner !== null && !inner.dynamic) visit(parseShellList(inner.value), at, depth + 1, nesting);
    });
  visit(parseShellList(check), workdir, 0, 0);
  // And the whole text from the gate's folder: past where the walk stops (a function, a
  // case, a loop, eval), inside here-documents and substitutions.
  if (check.length <= MAX_CHECK_SCANNED) for (const token of check.split(TOKEN_BREAK)) consider(token, workdir);
  else unread ??= `a CHECK longer than ${MAX_CHECK_SCANNED} characters`;
  return { files: [...found], unread };
}

/** What namedFiles asks of the disk (the caller's I/O), repository paths in and out. */
export interface NamedFilesDisk {
  /** Whether a repository path is a file there now. */
  isFile: (path: string) => boolean;
  /** Where a path written in the CHECK leads (lint/scripts.ts PathResolver; lexical when absent). */
  resolve?: PathResolver;
  /** What a shell pattern matches now. */
  expand?: PatternExpander;
  /** A repository file's text (package.json, a makefile, a configuration), or undefined when absent, unreadable or too big. */
  readText?: (path: string) => string | undefined;
}

/** The files namedFiles found, and where a bound on its work left text unread (or null). */
export interface NamedFiles {
  files: string[];
  unread: string | null;
}

/** Runners and interpreters that run the code in a folder they are given. */
const FOLDER_RUNNERS = /^(?:node|nodejs|deno|bun|tsx|ts-node|python[0-9.]*|pypy[0-9.]*|pytest|py\.test|prove|perl[0-9.]*|ruby[0-9.]*|rspec|mocha|jest|vitest|ava|tap|bats|phpunit|go|cargo|nose2|trial|behave|cucumber-js|karma|jasmine|uvu|c8|nyc)$/;

function runsFolders(cmd: SimpleCommand): boolean {
  const words = unwrapped(withoutKeywords(cmd));
  const runner = runnerOf(cmd);
  // `npm test`, `make test`: the word is a script or a target, not the folder of that name (round-16 noise).
  if (runner?.id === 'package-script' || runner?.id === 'make') return false;
  return runner !== null || FOLDER_RUNNERS.test(programName(words[0]) ?? '');
}

/** Where a word is cut into the tokens that may each be a path. */
const TOKEN_BREAK = /[\s'"`=:,;|&()<>{}]+/;
/** The same for shell patterns, which keep their braces and commas (`t/{a,b}.t`). */
const PATTERN_BREAK = /[\s'"`=:;|&()<>]+/;
const PATTERN = /[*?[{]/;

/** The files a shell pattern matches from a repository folder, relative to it; null past its bound (fsx/shell-pattern.ts). */
export type PatternExpander = (pattern: string, dir: string, folders?: boolean) => string[] | null;
/** Bounds on the work and the screen: a CHECK's words are few, but a CHECK may be long. */
const MAX_NAMED_FILES = 256;
const MAX_PATTERNS = 64;
const MAX_WORD_SCANNED = 4096;
const MAX_CHECK_SCANNED = 65_536;
/** What an npm script runs that its text alone does not say. */
const NPM_SCRIPT_INDIRECTION = /\$|\b(?:run-s|run-p|npm-run-all|concurrently|turbo|nx|lerna|wireit)\b|[*?]/;
/** Definition files read (makefiles and their includes, configurations), how deep scripts and includes nest, and how much of each is read. */
const MAX_DEFINITIONS = 32;
const MAX_NESTING = 8;
const MAX_DEFINITION_SCANNED = 262_144;
