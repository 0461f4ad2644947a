// A byte-level snapshot of a directory tree: paths, types, modes, sizes, contents, mtimes.
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

export function snapshotTree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string, rel: string) => {
    const st = lstatSync(dir);
    out[rel || '.'] = `dir ${st.mode.toString(8)} ${st.mtimeMs}`;
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      const r = rel ? `${rel}/${name}` : name;
      const s = lstatSync(p);
      if (s.isDirectory()) walk(p, r);
      else if (s.isSymbolicLink()) out[r] = `link ${readlinkSync(p)}`;
      else if (s.isFile()) out[r] = `file ${s.mode.toString(8)} ${s.mtimeMs} ${readFileSync(p).toString('base64')}`;
      else out[r] = `other ${s.mode.toString(8)}`;
    }
  };
  walk(root, '');
  return out;
}
