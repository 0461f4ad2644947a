// What the approval screen shows of the DEPENDS files that changed since the closest earlier
// approval of a gate: a diff against the approved version kept in the private store
// (approval/depends-copies.ts), so that a person re-approving reviews the change. A file
// added to DEPENDS is shown whole (as a diff against nothing); one removed needs no review.
import { approvedCopy, readCurrentFile } from '../approval/depends-copies.js';
import type { ApprovalRecord } from '../approval/record.js';
import type { OracleFields } from '../oracle/oracle.js';
import { sha256HexOfParts } from '../oracle/sha256.js';
import { dependsDiff, type DependsChange } from '../report/depends-diff.js';
import { reviewLine } from '../text/review-text.js';
import type { StoreLocations } from '../store/locations.js';

/**
 * The screen lines, and what of the DEPENDS files the screen could not show faithfully (a
 * file that changed while the screen was made, a changed line too long for it): such an
 * oracle is not approved at the prompt (report/run-text.ts fieldsCut).
 */
export interface DependsReview {
  lines: string[];
  notShown: string[];
}

/** Changed PATH executables named one by one on the screen. */
const MAX_NAMED = 5;

/**
 * `columns`: the terminal's width, which the diff rows are wrapped to (report/depends-diff.ts).
 * `boundElsewhere`: for each PATH executable, the digests the approvals of the repository's
 * other gates bound it with (read only when this gate was never approved).
 */
export function dependsReview(
  previous: ApprovalRecord | null,
  fields: OracleFields,
  locations: StoreLocations,
  root: string,
  columns: number,
  boundElsewhere: () => ReadonlyMap<string, ReadonlySet<string>>,
): DependsReview {
  const notShown: string[] = [];
  // An executable in a PATH directory of the repository that changed since the closest approval:
  // its content is not shown here (a node_modules/.bin link leads to a whole package), so it is
  // approved only by its pin, with its digest to check. A gate never approved (a renamed one
  // too) compares with what the repository's other approvals bound.
  if (fields.pathBound) {
    const was = previous !== null ? new Map(previous.oracle.pathBound ?? []) : null;
    const elsewhere = was === null ? boundElsewhere() : null;
    // A repository none of whose approvals bound an executable yet takes them as installed;
    // after that, one no approval bound (a new tools/jest ahead of node_modules/.bin) is new.
    const changed = fields.pathBound.filter(([path, digest]) => {
      if (was !== null) return was.get(path) !== digest;
      return elsewhere!.size > 0 && !(elsewhere!.get(path)?.has(digest) ?? false);
    });
    // A few by name and digest (an npm update changes hundreds): the pin approves them all.
    // "new" where no approval bound that path at all (a file added ahead of another on PATH).
    const known = (path: string) => (was !== null ? was.has(path) : elsewhere!.has(path));
    for (const [path, digest] of changed.slice(0, MAX_NAMED)) notShown.push(`PATH executable ${reviewLine(path, 200)} (SHA-256 ${digest}), ${known(path) ? 'changed' : 'new'}`);
    if (changed.length > MAX_NAMED) notShown.push(`${changed.length - MAX_NAMED} more changed or new PATH executables`);
  }
  if (fields.depends === null) return { lines: [], notShown };
  // Never approved (or approved under another gate id): every DEPENDS file is shown whole, as added.
  const before = new Map(previous?.oracle.depends ?? []);
  const changes: DependsChange[] = [];
  for (const [path, digest] of fields.depends) {
    const approved = before.get(path);
    if (approved === digest) continue;
    const now = readCurrentFile(root, path);
    changes.push({
      path,
      digest,
      approved: approved === undefined ? Buffer.alloc(0) : approvedCopy(locations, root, approved),
      now,
      // Read after the oracle hashed it: the diff is of the approved version only if the digest still matches.
      nowIsApproved: now !== null && sha256HexOfParts([now]) === digest,
    });
  }
  if (changes.length === 0) return { lines: [], notShown };
  const diff = dependsDiff(changes, columns);
  return { lines: diff.lines, notShown: [...notShown, ...diff.notShown.map((n) => `DEPENDS ${reviewLine(n.path, 200)}, ${n.why}`)] };
}
