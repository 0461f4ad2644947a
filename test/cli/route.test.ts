// Which build serves a command line (lib/cli/route.ts). A line sent to a fast build must be
// one that main.ts answers without the code that build lacks: --status (whatever else it
// holds, main.ts reports or serves it before any run), the Stop hook, and root command lines
// the fast parser reads (never help, a subcommand or what commander must explain).
import { describe, expect, it } from 'vitest';
import { routeOf } from '../../lib/cli/route.js';

describe('routeOf', () => {
  it('sends --status, with any options the fast parser reads, to the status build', () => {
    for (const argv of [['--status'], ['--status', '--strict'], ['--status', '--json', 'GATES.md'], ['gates/a.md', '--status', '--scope=web'], ['--status', '--approve'], ['--status', '--list-scopes']]) {
      expect(routeOf(argv), argv.join(' ')).toBe('status');
    }
  });

  it('sends the Stop hook, and only it, to the hook build', () => {
    expect(routeOf(['hook', 'stop', '--host', 'codex'])).toBe('hook');
    expect(routeOf(['hook', 'claude-stop'])).toBe('hook');
    for (const argv of [['hook'], ['hook', 'install'], ['hook', 'doctor'], ['hook', '--help'], ['hook', 'accept']]) expect(routeOf(argv), argv.join(' ')).toBe('full');
  });

  it('sends the other root command lines the fast parser reads to the run build', () => {
    for (const argv of [[], ['--approve'], ['--approve', 'G1@' + 'a'.repeat(32)], ['--reverify', '--only-stale'], ['--claim', '--scope', 'a'], ['--list-scopes'], ['GATES.md', '--jobs', '4'], ['--', '--status'], ['status']]) {
      expect(routeOf(argv), argv.join(' ')).toBe('run');
    }
  });

  it('sends everything else to the full build', () => {
    for (const argv of [
      ['lint'],
      ['approvals', 'list'],
      ['merge', 'a.json'],
      ['--status', '-h'], // declined by the fast parser: commander explains it
      ['--status', '--help'],
      ['--status', '--version'],
      ['--status', '--no-such-option'],
      ['--approve', '-j', '2'],
      ['--version'],
    ]) {
      expect(routeOf(argv), argv.join(' ')).toBe('full');
    }
  });
});
