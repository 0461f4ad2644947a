// Where a path or folder the CHECK names lies relative to the repository, read as text
// (the resolver passed to the readings follows links on disk). Pure.
import { isAbsolute, relative, sep } from 'node:path';

/**
 * An absolute path that starts with the repository's own path, as a repository path as
 * written: its `..` kept for the resolver, which follows links as the kernel does
 * (`/repo/dl/../x.sh` with `dl -> sub/deep` runs `sub/x.sh`; read as text it was `x.sh`:
 * round-15 H1). Null for any other path: outside, or inside only as text.
 */
export function absoluteInRepository(root: string, path: string): string | null {
  if (path === root) return '.';
  const prefix = root.endsWith('/') ? root : `${root}/`;
  if (!path.startsWith(prefix)) return null;
  return path.slice(prefix.length).replace(/^\/+/, '') || '.';
}

export function isLexicallyInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return !(rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel));
}

/** `dir` relative to `root`, with forward slashes ('.' for the root itself), or null outside it. */
export function repositoryDir(root: string, dir: string): string | null {
  const rel = relative(root, dir);
  if (rel === '') return '.';
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return null;
  return rel.split(sep).join('/');
}
