// Shared by the approvals tests: sandboxes with ledgers of marker-leaving gates, the CLI, and
// the store's record files as they are on disk.
import { existsSync, readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { runCli, writeFiles, type CliResult } from '../../helpers/cli.js';

export const RECORD_NAME = /^[0-9a-f]{16}-[0-9a-f]{64}\.json$/;

export interface Sandbox {
  repo: string;
  home: string;
  env: NodeJS.ProcessEnv;
}

export interface GateSpec {
  id: string;
  check?: string;
  expect?: string;
  depends?: string;
  manual?: boolean;
}

export interface ListGate {
  file: string;
  line: number;
  qualified: string;
  state: string;
  signature: string | null;
  approvedAt: string | null;
  changed: string[] | null;
  reason: string | null;
}

/** CHECK text that leaves a marker named after the gate at an absolute path. */
export function markCheck(s: Sandbox, id: string): string {
  return `touch '${join(s.repo, `ran-${id}`)}' && echo ok`;
}

export function ledgerText(s: Sandbox, gates: GateSpec[]): string {
  const blocks = gates.map((g) => {
    if (g.manual) return `- [ ] ${g.id}: a person decides\n`;
    const lines = [`- [ ] ${g.id}: gate ${g.id}`, `  CHECK: ${g.check ?? markCheck(s, g.id)}`, `  EXPECT: ${g.expect ?? 'ok'}`];
    if (g.depends !== undefined) lines.push(`  DEPENDS: ${g.depends}`);
    return lines.join('\n') + '\n';
  });
  return '# Gates\n\n' + blocks.join('\n');
}

export function writeLedger(s: Sandbox, gates: GateSpec[], file = 'GATES.md', repo = s.repo): void {
  writeFiles(repo, { [file]: ledgerText(s, gates) });
}

export function run(s: Sandbox, args: string[], cwd = s.repo, env: NodeJS.ProcessEnv = s.env): CliResult {
  return runCli(args, { cwd, env, timeoutMs: 20_000 });
}

export function approvalDir(s: Sandbox): string {
  return join(s.home, '.gate-check', 'approved');
}

export function records(s: Sandbox, dir = approvalDir(s)): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((n) => RECORD_NAME.test(n)).sort() : [];
}

/** Every entry of the store (records, locks, anything) with its contents: "nothing was touched". */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  for (const n of readdirSync(dir).sort()) out[n] = readFileSync(join(dir, n), 'utf8');
  return out;
}

export function recordsOf(s: Sandbox, gate: string, dir = approvalDir(s)): { name: string; ledger: string; gate: string; check: string; timeoutMs: number }[] {
  return records(s, dir)
    .flatMap((name) => {
      const r = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { oracle?: { ledger: string; gate: string; check: string; timeoutMs: number } };
      return r.oracle ? [{ name, ledger: r.oracle.ledger, gate: r.oracle.gate, check: r.oracle.check, timeoutMs: r.oracle.timeoutMs }] : [];
    })
    .filter((r) => r.gate === gate);
}

export function ran(s: Sandbox, id: string): boolean {
  return existsSync(join(s.repo, `ran-${id}`));
}

export function clearMarkers(s: Sandbox): void {
  for (const n of readdirSync(s.repo)) if (n.startsWith('ran-')) unlinkSync(join(s.repo, n));
}

/** Writes the ledger, approves and runs every gate, then resets the checkboxes and the markers. */
export function approveAll(s: Sandbox, gates: GateSpec[], file = 'GATES.md', args: string[] = []): void {
  writeLedger(s, gates, file);
  const r = run(s, ['--approve', ...args, ...(file === 'GATES.md' ? [] : [file])]);
  expect(r.stderr).toBe('');
  expect(r.stdout).not.toMatch(/APPROVAL REQUIRED/);
  for (const g of gates) if (!g.manual) expect(ran(s, g.id)).toBe(true);
  clearMarkers(s);
  writeLedger(s, gates, file);
}

export function listJson(s: Sandbox, args: string[] = []): { schema: string; gates: ListGate[] } {
  const r = run(s, ['approvals', 'list', '--json', ...args]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as { schema: string; gates: ListGate[] };
}
