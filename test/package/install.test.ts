// The package as a user installs it: packed, installed from the tarball into an empty
// project without network, and used from there (status, a run, lint, the Stop hook). It
// must need no runtime dependency (the bundle holds everything) and ship no source maps.
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sandbox, tempDir, writeFiles } from '../helpers/cli.js';

const ROOT = resolve(import.meta.dirname, '../..');
const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' } });

let project = '';
let tarball = '';

beforeAll(() => {
  const out = tempDir('gc-pack-');
  // dist/ was built by pretest; --ignore-scripts keeps this test from rebuilding it under the others.
  const name = npm(['pack', '--ignore-scripts', '--pack-destination', out, '--silent'], ROOT).trim().split('\n').pop()!;
  tarball = join(out, name);
  project = tempDir('gc-project-');
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'someone-elses-project', version: '1.0.0', private: true }));
  npm(['install', '--offline', '--no-save', tarball], project);
}, 120_000);

describe('the installed package', () => {
  it('installs nothing but itself, and ships no source maps', () => {
    const installed = readdirSync(join(project, 'node_modules')).filter((n) => !n.startsWith('.'));
    expect(installed).toEqual(['gate-check']);
    const files = npm(['pack', '--dry-run', '--json', '--ignore-scripts'], ROOT);
    const listed = (JSON.parse(files) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
    expect(listed.some((p) => p.endsWith('.map'))).toBe(false);
    expect(listed).toEqual(expect.arrayContaining(['LICENSE', 'SECURITY.md', 'bin/gate-check.js', 'bin/package.json', 'bin/fast-loader.cjs', 'dist/cli.js', 'dist/route.cjs', 'dist/status.cjs', 'dist/status.cjs.cache', 'dist/hook.cjs', 'dist/hook.cjs.cache', 'dist/run.cjs', 'dist/run.cjs.cache', 'dist/fast-glob.cjs', 'references/gates.md', 'package.json']));
    const pkg = JSON.parse(readFileSync(join(project, 'node_modules/gate-check/package.json'), 'utf8'));
    expect(pkg.dependencies ?? {}).toEqual({});
  });

  it('an installed copy packs again as it is, with its scripts run (it ships no build script: round-31b F10)', () => {
    const copy = tempDir('gc-repack-');
    execFileSync('cp', ['-R', `${join(project, 'node_modules/gate-check')}/.`, copy]);
    const out = tempDir('gc-repack-out-');
    // As a user runs it: none of the npm_* variables of the npm that started this test run.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')));
    const r = spawnSync('npm', ['pack', '--pack-destination', out], { cwd: copy, encoding: 'utf8', env });
    expect(r.status, r.stderr).toBe(0);
    const name = r.stdout.trim().split('\n').pop()!;
    expect(readdirSync(out)).toEqual([name]);
  });

  it('runs from the project: --status, an approved run, lint and the Stop hook', () => {
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': '- [ ] G1: greets\n  CHECK: echo hello\n  EXPECT: hello\n' });
    const bin = join(project, 'node_modules/.bin/gate-check');
    const run = (args: string[], input = '') => spawnSync(bin, args, { cwd: s.repo, env: s.env, input, encoding: 'utf8' });
    const status = run(['--status']);
    expect(status.status).toBe(1);
    expect(status.stdout).toMatch(/^GATES:G1 {2}unchecked {2}greets$/m);
    const approve = run(['--approve']);
    expect(approve.stdout).toMatch(/^PASS GATES:G1/m);
    expect(approve.status).toBe(0);
    expect(run(['--status', '--strict']).status).toBe(0);
    expect(run(['lint']).status).toBe(0);
    // The README's first command, from the installed package (round-38b F8: examples/ was not shipped).
    const example = spawnSync(process.execPath, ['bin/gate-check.js', '--status', '--root', 'examples'], { cwd: join(project, 'node_modules/gate-check'), env: s.env, encoding: 'utf8' });
    expect(example.status, example.stderr).toBe(1);
    expect(example.stdout).toMatch(/^GATES:/m);
    const hook = run(['hook', 'claude-stop'], JSON.stringify({ session_id: 's1', cwd: s.repo, hook_event_name: 'Stop', stop_hook_active: false }));
    expect(hook.status).toBe(0);
    expect(hook.stdout).toBe(''); // every gate met and verified: the stop is allowed silently
  });
});
