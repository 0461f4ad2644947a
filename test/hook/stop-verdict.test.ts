// The Stop hook's catch-alls: an error of no kind gate-check knows, at any step of the verdict,
// blocks the stop (uncounted: it never wears off), and never lets it through. Such an error is
// a bug, which no repository can provoke on purpose, so it is injected here: each step's
// module is wrapped so that one named step throws a TypeError, and the verdict runs in this
// process over a real repository and a real private store. (The CLI-level tests in
// test/adversarial/stop-hook.test.ts reach the catch-all through real system errors.)
import { spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sandbox, writeFiles } from '../helpers/cli.js';
import { stopInput } from '../helpers/stop-hook.js';
import { decideStop } from '../../lib/hook/stop-verdict.js';
import { hostByName } from '../../lib/hook/hosts.js';
import type { Io } from '../../lib/program/io.js';
import { fsyncFault } from '../../lib/fsx/sync.js';

const faults = vi.hoisted(() => ({ at: null as string | null }));

/** The module's exports, with the named functions throwing while `faults.at` names them. */
function faulty<T extends Record<string, unknown>>(original: T, names: readonly string[]): T {
  const out: Record<string, unknown> = { ...original };
  for (const name of names) {
    const real = original[name] as (...args: unknown[]) => unknown;
    out[name] = (...args: unknown[]) => {
      if (faults.at === name) throw new TypeError(`injected fault in ${name}`);
      return real(...args);
    };
  }
  return out as T;
}

vi.mock('../../lib/hook/session-repositories.js', async (load) => faulty(await load(), ['readSessionRepositories', 'ownersFromRecords', 'rememberSessionRepositories']));
vi.mock('../../lib/hook/repository-roots.js', async (load) => faulty(await load(), ['readRepositoryRoots', 'rememberRepositoryRoots']));
vi.mock('../../lib/hook/hook-ledgers.js', async (load) => faulty(await load(), ['loadHookLedgers']));
vi.mock('../../lib/hook/session-baseline.js', async (load) => faulty(await load(), ['readBaselines', 'extendBaselines']));
vi.mock('../../lib/hook/ledger-memory.js', async (load) => faulty(await load(), ['readLedgerMemory', 'writeLedgerMemory']));
vi.mock('../../lib/evidence/verify-met.js', async (load) => faulty(await load(), ['verifyMetGates']));
vi.mock('../../lib/hook/scope-binding.js', async (load) => faulty(await load(), ['readBinding']));

const STEPS = [
  'readSessionRepositories',
  'ownersFromRecords',
  'rememberSessionRepositories',
  'readRepositoryRoots',
  'rememberRepositoryRoots',
  'loadHookLedgers',
  'readBaselines',
  'extendBaselines',
  'readLedgerMemory',
  'writeLedgerMemory',
  'verifyMetGates',
];

const claude = hostByName('claude')!;

function repoWith(files: Record<string, string>) {
  const s = sandbox();
  expect(spawnSync('git', ['init', '-q'], { cwd: s.repo }).status).toBe(0);
  writeFiles(s.repo, files);
  const io: Io = { stdout: () => {}, stderr: () => {}, env: s.env, cwd: s.repo, interactive: () => false, stderrIsTTY: false, ask: async () => null };
  const stop = (session = 'faults', payload?: string) => decideStop(claude.parse(payload ?? stopInput(s.repo, session), s.env), claude, io);
  return { ...s, stop };
}

// The deadline counts from process start; this worker started long ago.
beforeEach(() => {
  const started = Date.now();
  vi.spyOn(process, 'uptime').mockImplementation(() => (Date.now() - started) / 1000);
});
afterEach(() => {
  faults.at = null;
  fsyncFault.fail = null;
  vi.restoreAllMocks();
});

describe('an unexpected error at any step of the verdict blocks the stop, and keeps blocking', () => {
  // Every gate met: without a fault the stop is allowed, so a fault that fell through to the
  // verdict of what was read so far (nothing) would allow it too, and fail the test.
  const MET = '- [x] M: reviewed by a person\n  EVIDENCE: reviewed\n';

  it('without a fault, the ledger allows the stop (the control)', async () => {
    const r = repoWith({ 'GATES.md': MET });
    const d = await r.stop();
    expect(d).toEqual({ kind: 'allow', message: null });
  });

  for (const step of STEPS) {
    it(`a TypeError in ${step}`, async () => {
      const r = repoWith({ 'GATES.md': MET });
      // A first stop records the session's repository, roots and baseline, so that every read
      // step has something to read on the second.
      expect((await r.stop('warm')).kind).toBe('allow');
      faults.at = step;
      for (let i = 0; i < 8; i++) {
        const d = await r.stop('warm');
        expect(d.kind, `call ${i + 1}`).toBe('block');
        expect(d.kind === 'block' && d.reason).toMatch(new RegExp(`could not check the gates \\(injected fault in ${step}\\)`));
      }
      faults.at = null;
      expect((await r.stop('warm')).kind).toBe('allow');
    });
  }

  it('a TypeError while a sub-agent is matched to its binding', async () => {
    const r = repoWith({ 'GATES.md': MET });
    faults.at = 'readBinding';
    const payload = JSON.stringify({ session_id: 'sub', transcript_path: '/tmp/x.jsonl', cwd: r.repo, hook_event_name: 'SubagentStop', stop_hook_active: false, agent_id: 'a1', agent_type: 'general' });
    const d = await r.stop('sub', payload);
    expect(d.kind).toBe('block');
  });
});

describe('what a stop costs on disk', () => {
  // Every stop takes the count's lock and writes the count; an fsync there is paid on every
  // call (milliseconds on a laptop's disk), for state a crash may roll back without harm.
  it('a repeated stop syncs nothing', async () => {
    const r = repoWith({ 'GATES.md': '- [ ] A: open\n' });
    const synced: string[] = [];
    fsyncFault.fail = (p) => (synced.push(p), null);
    expect((await r.stop('disk')).kind).toBe('block');
    expect(synced.length).toBeGreaterThan(0); // the first stop records the baseline, durably
    synced.length = 0;
    for (let i = 0; i < 3; i++) expect((await r.stop('disk')).kind).toBe('block');
    expect(synced).toEqual([]);
  });
});
