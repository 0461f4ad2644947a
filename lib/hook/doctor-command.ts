// gate-check hook doctor [--root DIR] [--json]: is the Stop hook installed, enabled, installed
// once, and given time enough, for every agent host used in the repository or the home
// directory? Reads only. Exit 0 when nothing is wrong, 1 when something is (a hook that
// cannot run or does not run, a hook that runs twice, a timeout not longer than the hook's
// deadline, a settings file it cannot read, no hook installed at all), 2 on a usage error.
import { isAbsolute } from 'node:path';
import type { Io } from '../program/io.js';
import { parseSubcommand, subcommandProgram } from '../program/subcommand-program.js';
import { UsageError } from '../errors.js';
import { resolveRoot } from '../fsx/discover.js';
import { sanitizeLine } from '../text/sanitize.js';
import { doctor, type DoctorReport } from './doctor.js';

interface DoctorOptions {
  root?: string;
  json?: boolean;
}

const HELP_AFTER = `
For each agent host (Claude Code, Codex CLI, GitHub Copilot CLI, Gemini CLI, Cursor) whose
settings are in the repository or the home directory: the gate-check Stop hook entries it
would run, whether each can run (its node and CLI exist), whether the host turns its hooks
off, whether one stop would run the hook twice (Copilot CLI also reads .claude/settings*.json),
and each timeout against the hook's own 10 s deadline. Reads only.
Exit codes: 0 nothing wrong; 1 something wrong (or no hook installed); 2 usage error.
`;

function s(text: string, max = 400): string {
  return sanitizeLine(text, max);
}

/** The report with every string sanitized, for --json. */
function sanitized(report: DoctorReport): DoctorReport {
  const clean = (v: unknown): unknown => {
    if (typeof v === 'string') return s(v, 2000);
    if (Array.isArray(v)) return v.map(clean);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, clean(x)]));
    return v;
  };
  return clean(report) as DoctorReport;
}

function text(report: DoctorReport): string {
  const out: string[] = [`gate-check hook doctor: ${report.root === null ? '(no repository)' : s(report.root)} (home: ${report.home === null ? 'unknown' : s(report.home)})`];
  if (report.hosts.length === 0) out.push('no agent host found here');
  for (const h of report.hosts) {
    const state = h.installed ? (h.enabled ? 'installed' : `installed, but hooks are off (${s(h.disabledBy ?? '')})`) : 'not installed';
    out.push(`${h.name}: ${state}`);
    for (const e of h.entries) {
      const timeout = e.timeoutSeconds === null ? 'timeout: the host default (not documented)' : `timeout ${e.timeoutSeconds} s${e.timeoutExplicit ? '' : ' (host default)'}`;
      const via = e.borrowed ? ` (${e.borrowed}'s file)` : '';
      out.push(`  ${s(e.file)} ${e.at}${via}: ${e.form} ${s(e.command, 600)}; ${timeout}${e.runnable === 'no' ? '; CANNOT RUN' : ''}`);
    }
    for (const u of h.unreadable) out.push(`  ${s(u.file)}: cannot read (${s(u.reason)})`);
  }
  if (report.problems.length > 0) {
    out.push(`problems (${report.problems.length}):`);
    for (const p of report.problems) out.push(`  - ${s(p, 1000)}`);
  }
  const warnings = report.hosts.flatMap((h) => h.warnings.map((w) => `${h.name}: ${w}`));
  if (warnings.length > 0) {
    out.push('notes:');
    for (const w of warnings) out.push(`  - ${s(w, 1000)}`);
  }
  out.push(report.ok ? 'ok' : `not ok: ${report.problems.length} problem${report.problems.length === 1 ? '' : 's'}`);
  return out.join('\n') + '\n';
}

export async function hookDoctorCommand(args: string[], io: Io): Promise<number> {
  const { program, output } = subcommandProgram('hook doctor', 'Check the gate-check Stop hook of every agent host used here.');
  program.option('--root <dir>', 'repository root (default: the current directory)').option('--json', 'one JSON document on stdout').addHelpText('after', HELP_AFTER);
  const parsed = parseSubcommand<DoctorOptions>(program, output, args);
  if (parsed.kind === 'done') {
    io.stdout(parsed.output);
    return 0;
  }
  // Mutation note: equivalent while commander refuses excess arguments itself (test/hook/subcommand-usage.test.ts).
  if (parsed.args.length > 0) throw new UsageError(`unexpected argument ${sanitizeLine(parsed.args[0]!, 80)}`, "see 'gate-check hook doctor --help'");
  const root = resolveRoot(parsed.options.root, io.cwd).path;
  const home = io.env.HOME && isAbsolute(io.env.HOME) ? io.env.HOME : null;
  const report = doctor({ root, home, env: io.env });
  io.stdout(parsed.options.json ? JSON.stringify(sanitized(report), null, 2) + '\n' : text(report));
  return report.ok ? 0 : 1;
}
