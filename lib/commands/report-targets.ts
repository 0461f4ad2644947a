// Where a report may not go: over a ledger, or into the private store. `--junit GATES.md` or
// GITHUB_STEP_SUMMARY=gates/x.md would replace or grow a ledger, so the file being written is
// compared by identity (device and inode, so another spelling or a hard link is seen) with
// every ledger of the report and every ledger discovery would find under its root (the
// writers ask on the file itself: right before the rename, or on the opened descriptor); and
// a target's path, canonical and as given, with the private store's directories.
import { readdirSync, realpathSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UnsafeFileError } from '../errors.js';
import { isInside } from '../fsx/discover.js';
import { lstatOrNull } from '../fsx/safe-read.js';
import type { Report } from '../report/model.js';
import { storeLocations } from '../store/locations.js';

export interface ReportTargetGuard {
  /** Throws if `path` (absolute, existing or not) lies in the private store. */
  checkPath(path: string): void;
  /** Why the file with these stats (of the target itself, as it is written) may not receive a report, or null. */
  refuse(st: Stats): string | null;
}

function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** `path` with its directory resolved through links (the file itself may not exist yet). */
function canonicalTarget(path: string): string {
  return join(canonical(dirname(path)), basename(path));
}

/** Regular files that discovery would take for ledgers under `root`: GATES.md, gates/*.md, .gate-check/<scope>/*.md. */
function discoverableLedgers(root: string): string[] {
  const out = [join(root, 'GATES.md')];
  const markdownIn = (dir: string) => {
    try {
      for (const name of readdirSync(dir)) if (name.endsWith('.md')) out.push(join(dir, name));
    } catch {
      /* absent or unreadable: nothing discovery could use */
    }
  };
  markdownIn(join(root, 'gates'));
  const scopes = join(root, '.gate-check');
  try {
    for (const e of readdirSync(scopes, { withFileTypes: true })) if (e.isDirectory()) markdownIn(join(scopes, e.name));
  } catch {
    /* no scopes */
  }
  return out;
}

export function reportTargetGuard(report: Pick<Report, 'root' | 'files'>, env: NodeJS.ProcessEnv): ReportTargetGuard {
  const ledgers = new Map<string, string>();
  const root = report.root !== '' ? resolve(report.root) : null;
  const candidates = root ? [...report.files.map((f) => resolve(root, f)), ...discoverableLedgers(root)] : [];
  for (const path of candidates) {
    const st = lstatOrNullQuiet(path);
    if (st?.isFile()) ledgers.set(`${st.dev}:${st.ino}`, path);
  }
  const locations = storeLocations(env);
  const store = [locations.base, locations.approvals].flatMap((d) => [resolve(d), canonical(d)]);
  const refuse = (st: Stats): string | null => {
    const ledger = ledgers.get(`${st.dev}:${st.ino}`);
    return ledger === undefined ? null : `is the ledger ${ledger} (refused: a report never replaces or extends a ledger)`;
  };
  return {
    refuse,
    checkPath(path: string) {
      const real = canonicalTarget(path);
      if (store.some((d) => isInside(d, path) || isInside(d, real))) {
        throw new UnsafeFileError(path, "lies in gate-check's private store (refused: a report is never written there)");
      }
    },
  };
}

function lstatOrNullQuiet(path: string): Stats | null {
  try {
    return lstatOrNull(path);
  } catch {
    return null;
  }
}
