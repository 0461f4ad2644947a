// Code loaded through the environment is code the approval must see (integrity attack F1):
// an approved node check, run again with NODE_OPTIONS=--require of a file that prints the
// expected line for it, must run nothing until a person approves the new environment.
import { chmodSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { joinedRows, runCli, sandbox, writeFiles } from '../helpers/cli.js';

describe('environment variables that load code are bound into the approval', () => {
  it('NODE_OPTIONS=--require of a faking module: APPROVAL REQUIRED naming the variable, nothing runs, nothing is ticked; the approval screen shows it', () => {
    const s = sandbox();
    writeFiles(s.repo, {
      'GATES.md': '- [ ] G1: the suite passes\n  CHECK: node check.cjs\n  EXPECT: all passed\n  DEPENDS: check.cjs\n',
      'check.cjs': "console.log(process.env.BROKEN ? 'FAILED' : 'all passed'); process.exit(process.env.BROKEN ? 1 : 0);\n",
      'inject.cjs': "require('fs').writeFileSync(require('path').join(__dirname, 'injected-ran'), ''); if (process.argv[1].endsWith('check.cjs')) { console.log('all passed'); process.exit(0); }\n",
    });
    const env = { ...s.env };
    delete env.NODE_OPTIONS;
    expect(runCli(['--approve'], { cwd: s.repo, env }).code).toBe(0);
    // The work breaks: an honest run fails and demotes the gate.
    expect(runCli(['--reverify'], { cwd: s.repo, env: { ...env, BROKEN: '1' } }).code).toBe(1);
    const injected = { ...env, BROKEN: '1', NODE_OPTIONS: `--require ${join(s.repo, 'inject.cjs')}` };
    const r = runCli([], { cwd: s.repo, env: injected });
    expect(r.code, r.stdout).toBe(1);
    expect(r.stdout).toMatch(/^ {2}ENV {5}NODE_OPTIONS=--require .*inject\.cjs$/m);
    expect(r.stdout).toMatch(/approved before for another oracle: environment: NODE_OPTIONS set/);
    expect(r.stdout).not.toMatch(/PASS|ALL MET/);
    // gate-check's own Node process loads the module too (it writes its marker there), but the check never starts.
    expect(runCli(['--status', '--strict'], { cwd: s.repo, env }).code).toBe(1);
    expect(runCli(['--reverify'], { cwd: s.repo, env: injected }).stdout).toMatch(/^APPROVAL REQUIRED GATES:G1@[0-9a-f]{32} /m);
    // Without the variable the approval holds, as before.
    expect(runCli(['--reverify'], { cwd: s.repo, env }).code).toBe(0);
  });

  // Round-33 F3: flock -c runs $SHELL; round-34 F3: a bound SHELL made a record gate-check then refused.
  it('a SHELL outside the system folders is bound and its record is read back; set to a repository file later, nothing runs', () => {
    const s = sandbox();
    writeFiles(s.repo, { 'GATES.md': '- [ ] G1: the lock works\n  CHECK: echo cli ok\n  EXPECT: cli ok\n', 'cli/mycli': '#!/bin/sh\necho ran >> ran.log; echo cli ok\n' });
    chmodSync(join(s.repo, 'cli/mycli'), 0o755);
    const env = { ...s.env, SHELL: '/bin/sh' };
    const nix = { ...s.env, SHELL: '/nix/store/x-bash/bin/bash' };
    const approved = runCli(['--approve'], { cwd: s.repo, env: nix });
    expect(approved.code, approved.stderr).toBe(0);
    expect(runCli(['--status', '--strict'], { cwd: s.repo, env: nix }).code).toBe(0);
    expect(runCli(['--reverify'], { cwd: s.repo, env: nix }).code).toBe(0);
    expect(runCli(['--approve'], { cwd: s.repo, env }).code).toBe(0);
    const planted = runCli(['--reverify'], { cwd: s.repo, env: { ...s.env, SHELL: join(s.repo, 'cli/mycli') } });
    expect(planted.code).toBe(1);
    expect(joinedRows(planted.stdout)).toMatch(/approved before for another oracle: environment: SHELL (set|changed)/);
    expect(existsSync(join(s.repo, 'ran.log'))).toBe(false);
  });

  // Round-39u U1: make's $(MAKE) and tar's TAR_OPTIONS (--to-command, --checkpoint-action=exec)
  // ran other code under an old approval, with every file the verdict reads bound; so did
  // npm_config_workspace (another package's test script).
  it('MAKE and TAR_OPTIONS set after the approval: APPROVAL REQUIRED naming the variable, and nothing runs', () => {
    const s = sandbox();
    writeFiles(s.repo, {
      'GATES.md': '- [ ] G1: the unit tests pass\n  CHECK: make -s test\n  EXPECT: unit: ok\n  DEPENDS: Makefile, tests/**\n- [ ] G2: the fixture unpacks\n  CHECK: tar cf x.tar tests && tar xf x.tar -O tests/unit.sh | grep -c unit\n  EXPECT: 1\n  DEPENDS: tests/**\n- [ ] G3: a clean build\n  CHECK: make -s clean\n  EXPECT: cleaned\n  DEPENDS: Makefile\n- [ ] G4: the flags resolve\n  CHECK: sh tests/flags.sh\n  EXPECT: flags ok\n  DEPENDS: tests/**\n',
      Makefile: 'test:\n\t@$(MAKE) -s -C tests run\nclean:\n\t@$(RM) none.tmp; echo cleaned\n',
      'tests/Makefile': 'run:\n\t@sh unit.sh\n',
      'tests/unit.sh': 'echo unit: ok\n',
      // As pkg-config reads the .pc files of each folder on PKG_CONFIG_PATH (whose Cflags reach the compiler).
      'tests/flags.sh': 'IFS=:; for d in ${PKG_CONFIG_PATH:-}; do [ -f "$d/x.sh" ] && . "$d/x.sh"; done; echo flags ok\n',
    });
    const env = { ...s.env };
    for (const v of ['MAKE', 'TAR_OPTIONS', 'MAKEFLAGS', 'RM', 'PKG_CONFIG_PATH']) delete env[v];
    expect(runCli(['--approve'], { cwd: s.repo, env }).code).toBe(0);
    const ran = join(s.repo, 'ran');
    writeFiles(join(s.repo, '..', 'pc'), { 'x.sh': `echo x > '${ran}'\n` });
    for (const [name, value, gate] of [
      ['MAKE', `sh -c "echo unit: ok; echo x > ${ran}" --`, 'G1'],
      ['TAR_OPTIONS', `--checkpoint=1 --checkpoint-action=exec=touch\ ${ran}`, 'G2'],
      // Round 39v: make's built-in program variables next to MAKE.
      ['RM', `sh -c "echo x > ${ran}" --`, 'G3'],
      // Round 39x X1: pkg-config's search path.
      ['PKG_CONFIG_PATH', join(s.repo, '..', 'pc'), 'G4'],
    ] as const) {
      const r = runCli(['--reverify'], { cwd: s.repo, env: { ...env, [name]: value } });
      expect(r.code, name).toBe(1);
      expect(joinedRows(r.stdout)).toMatch(new RegExp(`APPROVAL REQUIRED GATES:${gate}@[0-9a-f]{32} [^]*environment: ${name} set`));
      expect(existsSync(ran), name).toBe(false);
    }
    expect(runCli(['--reverify'], { cwd: s.repo, env }).code).toBe(0);
  });
});
