// The ledgers of a committed revision, read through git's object database (never a checkout,
// never a command from the repository): GATES.md, gates/*.md and .gate-check/<scope>/*.md
// under --root, found by the same rules as discovery in a working tree (a symbolic link, a
// submodule or another non-file where a ledger or a ledger folder is expected is refused),
// bounded like a ledger read (8 MiB each), decoded strictly and parsed.
import { DiscoveryError, ParseError, UnsafeFileError, type Diagnostic } from '../errors.js';
import type { SnapshotLedger } from '../ledger/compare.js';
import { parseLedger } from '../ledger/parse.js';
import { findEntry, parseTree, type TreeEntry } from '../run/git-tree.js';
import { openObjectReader, resolveRevision, type ObjectReader } from '../run/git.js';
import { decodeLedger, MAX_LEDGER_BYTES } from './load.js';

/** Every object read from BASE together: trees and ledgers. */
export const MAX_REVISION_BYTES = 64 * 1024 * 1024;
export const REVISION_READ_TIMEOUT_MS = 60_000;

export interface RevisionLedgers {
  commit: string;
  /** Where --root lies in the repository ('' or "dir/"): repository-relative paths are prefix + file. */
  prefix: string;
  ledgers: SnapshotLedger[];
  warnings: Diagnostic[];
}

export interface RevisionOptions {
  root: string;
  rev: string;
  /** Only this scope's ledgers; undefined: the root ledgers and every scope. */
  scope: string | undefined;
  env: NodeJS.ProcessEnv;
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });
const LOSSY_UTF8 = new TextDecoder('utf-8');

interface Found {
  file: string;
  scope: string | null;
  oid: string;
}

export async function loadRevisionLedgers(options: RevisionOptions): Promise<RevisionLedgers> {
  const { root, rev, scope, env } = options;
  const target = await resolveRevision(root, rev, env);
  const oidBytes = target.commit.length / 2;
  const reader = openObjectReader(root, env, { maxObjectBytes: MAX_LEDGER_BYTES, maxTotalBytes: MAX_REVISION_BYTES, timeoutMs: REVISION_READ_TIMEOUT_MS });
  const at = (path: string) => `${rev}:${target.prefix}${path}`;
  try {
    const tree = async (name: string, shown: string): Promise<TreeEntry[]> => {
      const r = await readBounded(reader, name, shown);
      if (r.type !== 'tree') throw new DiscoveryError(`${shown} is a ${r.type}, not a directory`);
      const entries = parseTree(r.bytes, oidBytes);
      if (entries === null) throw new DiscoveryError(`${shown}: malformed tree object (refused)`);
      return entries;
    };

    // Down to --root inside the repository; a root that did not exist at BASE had no ledgers.
    let top = await tree(`${target.commit}^{tree}`, `${rev}:`);
    let walked = '';
    for (const part of target.prefix.split('/').filter((p) => p !== '')) {
      const e = findEntry(top, part);
      walked += `${part}/`;
      if (e === null) return { commit: target.commit, prefix: target.prefix, ledgers: [], warnings: [] };
      if (e.kind !== 'tree') throw new DiscoveryError(`${rev}:${walked} is ${DESCRIBE[e.kind]} at BASE, not a directory (refused)`);
      top = await tree(e.oid, `${rev}:${walked}`);
    }

    const found: Found[] = [];
    if (scope === undefined) {
      const gatesMd = findEntry(top, 'GATES.md');
      if (gatesMd !== null) {
        requireFile(gatesMd, at('GATES.md'));
        found.push({ file: 'GATES.md', scope: null, oid: gatesMd.oid });
      }
      const gates = findEntry(top, 'gates');
      if (gates !== null) {
        requireDirectory(gates, at('gates'));
        for (const f of markdownFiles(await tree(gates.oid, at('gates')), 'gates', at)) found.push({ ...f, scope: null });
      }
    }
    const stateDir = findEntry(top, '.gate-check');
    if (stateDir !== null) {
      requireDirectory(stateDir, at('.gate-check'));
      const only = scope === undefined ? null : Buffer.from(scope, 'utf8');
      for (const e of await tree(stateDir.oid, at('.gate-check'))) {
        if (e.name[0] === 0x2e) continue; // dot entries are not scopes
        if (only !== null && !e.name.equals(only)) continue;
        if (e.kind === 'blob') continue; // a plain file holds no ledgers
        const name = entryName(e, at('.gate-check/'));
        const label = `.gate-check/${name}`;
        requireDirectory(e, at(label));
        for (const f of markdownFiles(await tree(e.oid, at(label)), label, at)) found.push({ ...f, scope: name });
      }
    }

    const blobs = await Promise.all(found.map((f) => readBounded(reader, f.oid, at(f.file))));
    const ledgers: SnapshotLedger[] = [];
    const errors: Diagnostic[] = [];
    const warnings: Diagnostic[] = [];
    found.forEach((f, i) => {
      const blob = blobs[i]!;
      const shown = at(f.file);
      if (blob.type !== 'blob') throw new DiscoveryError(`${shown} is a ${blob.type}, not a file`);
      const source = decodeLedger(blob.bytes);
      if (source === null) {
        errors.push({ file: shown, message: 'ledger is not valid UTF-8' });
        return;
      }
      const result = parseLedger(source);
      for (const w of result.ok ? result.ledger.warnings : result.warnings) warnings.push({ ...w, file: shown });
      if (!result.ok) {
        for (const e of result.errors) errors.push({ ...e, file: shown });
        return;
      }
      ledgers.push({ file: f.file, scope: f.scope, ledger: result.ledger });
    });
    if (errors.length > 0) throw new ParseError(errors, warnings);
    return { commit: target.commit, prefix: target.prefix, ledgers, warnings };
  } finally {
    reader.close();
  }
}

async function readBounded(reader: ObjectReader, name: string, shown: string): Promise<{ type: string; bytes: Buffer }> {
  const r = await reader.read(name);
  if (r.kind === 'missing') {
    throw new DiscoveryError(`${shown}: the object is not in this clone (a partial or shallow clone?)`, 'fetch BASE with its objects (in GitHub Actions: actions/checkout with fetch-depth: 0 and no filter)');
  }
  if (r.kind === 'too-large') {
    throw r.limit === 'object'
      ? new UnsafeFileError(shown, `is ${r.size} bytes at BASE (at most ${MAX_LEDGER_BYTES})`)
      : new UnsafeFileError(shown, `reading it would pass ${MAX_REVISION_BYTES} bytes read from BASE in all (refused)`);
  }
  return r;
}

/** An entry's name; a name that is not UTF-8 is refused, so that no two names can look alike here. */
function entryName(e: TreeEntry, where: string): string {
  try {
    return STRICT_UTF8.decode(e.name);
  } catch {
    throw new DiscoveryError(`${where}${LOSSY_UTF8.decode(e.name)}: a name that is not valid UTF-8 (refused)`);
  }
}

const DESCRIBE: Record<TreeEntry['kind'], string> = {
  tree: 'a directory',
  blob: 'a file',
  symlink: 'a symbolic link',
  gitlink: 'a submodule',
  unknown: 'an entry of unknown type',
};

function requireFile(e: TreeEntry, shown: string): void {
  if (e.kind !== 'blob') throw new DiscoveryError(`${shown} is ${DESCRIBE[e.kind]} at BASE (refused: ledgers are regular files)`);
}

function requireDirectory(e: TreeEntry, shown: string): void {
  if (e.kind !== 'tree') throw new DiscoveryError(`${shown} is ${DESCRIBE[e.kind]} at BASE (refused: ledger folders are real directories)`);
}

/** The *.md entries of a ledger folder (not dot files), like discovery's markdownEntries. */
function markdownFiles(entries: readonly TreeEntry[], dir: string, at: (path: string) => string): { file: string; oid: string }[] {
  const out: { file: string; oid: string }[] = [];
  const md = Buffer.from('.md');
  for (const e of entries) {
    if (e.name[0] === 0x2e || e.name.length < md.length || !e.name.subarray(e.name.length - md.length).equals(md)) continue;
    const file = `${dir}/${entryName(e, at(`${dir}/`))}`;
    requireFile(e, at(file));
    out.push({ file, oid: e.oid });
  }
  return out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}
