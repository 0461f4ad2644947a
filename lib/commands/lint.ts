// gate-check lint: gate-quality findings. It reads ledgers and lists the files DEPENDS globs
// match; it never executes a CHECK, approves, locks or writes anything.
import type { Io } from '../program/io.js';
import { parseSubcommand, subcommandProgram } from '../program/subcommand-program.js';
import { GateCheckError, ParseError, type Diagnostic } from '../errors.js';
import type { Expect } from '../ledger/expect.js';
import type { Gate } from '../ledger/types.js';
import { lintLedger } from '../lint/lint.js';
import { countByRule, LINT_SCHEMA, renderLintJson, renderLintText, type LintReport } from '../lint/render.js';
import { gateWorkdir } from '../lint/scripts.js';
import type { GateContext } from '../lint/types.js';
import { matchExpect } from '../run/expect-match.js';
import { readRepositoryText } from '../fsx/physical-path.js';
import { isPlainObject } from '../json/hostile.js';
import { loadWorkspace, type Workspace } from '../workspace/load.js';

interface LintOptions {
  root?: string | undefined;
  scope?: string | undefined;
  strict?: boolean | undefined;
  json?: boolean | undefined;
}

// A ledger's regex is untrusted: each test against an echo argument gets a small time cap
// and a bounded subject, and after a few time-outs regexes are no longer tested at all, so
// no ledger can stall lint.
const REGEX_CAP_MS = 50;
const MAX_SUBJECT = 4096;
const MAX_REGEX_TIMEOUTS = 10;

const HELP_AFTER = `
Rules: mostly-manual, activity-title, manual-measurable, unmeasured-number,
cannot-fail, self-satisfying, inverted-exit, masked-exit, weak-expect,
matches-anything, passes-with-no-tests, path-like-regex, undeclared-script,
undeclared-inputs, machine-specific-path
(references/lint.md explains each, with fixes). Attribute typos (CHEK:, a Cyrillic
С in CHECK) are parse errors, reported with exit 2 like every parse error.

Nothing in a ledger is executed. Exit codes:
  0  no findings, or findings without --strict
  1  findings with --strict
  2  usage, discovery or parse failure
`;

export async function lintCommand(args: string[], io: Io): Promise<number> {
  const { program, output } = subcommandProgram('lint', 'Report gate-quality findings in ledgers. Never executes anything.');
  program
    .argument('[file...]', 'ledger files (default: GATES.md and gates/*.md under --root)')
    .option('--root <dir>', 'repository root for discovery (default: current directory)')
    .option('--scope <id>', 'lint the ledgers of .gate-check/<id>/')
    .option('--strict', 'exit 1 when there is any finding')
    .option('--json', 'one JSON document on stdout (references/lint.schema.json)')
    .addHelpText('after', HELP_AFTER);
  const parsed = parseSubcommand<LintOptions>(program, output, args);
  if (parsed.kind === 'done') {
    io.stdout(parsed.output);
    return 0;
  }
  const options = parsed.options;
  try {
    const ws = loadWorkspace({ root: options.root, scope: options.scope, files: parsed.args, cwd: io.cwd, env: io.env });
    const report = await lint(ws, options.strict === true);
    io.stdout(options.json ? renderLintJson(report) : renderLintText(report));
    return report.exitCode;
  } catch (error) {
    // With --json, stdout still gets one document; main prints the error and exits 2.
    if (options.json) io.stdout(renderLintJson(errorReport(error)));
    throw error;
  }
}

async function lint(ws: Workspace, strict: boolean): Promise<LintReport> {
  const contexts = await gateContexts(ws);
  const contextOf = (gate: Gate) => contexts.get(gate)!;
  const matcher = boundedMatcher();
  const findings = ws.ledgers.flatMap((l) => lintLedger({ file: l.location.display, stem: l.stem, gates: l.ledger.gates }, contextOf, matcher.matches));
  const warnings = [...ws.warnings];
  if (matcher.exhausted()) {
    warnings.push({ message: `EXPECT regexes hit the ${REGEX_CAP_MS} ms time cap ${MAX_REGEX_TIMEOUTS} times; later regexes were not tested against echo/printf text (self-satisfying may be missed)` });
  }
  const gates = ws.ledgers.reduce((n, l) => n + l.ledger.gates.length, 0);
  return {
    schema: LINT_SCHEMA,
    exitCode: strict && findings.length > 0 ? 1 : 0,
    root: ws.root.path,
    files: ws.ledgers.map((l) => l.location.display),
    summary: { findings: findings.length, gates, byRule: countByRule(findings) },
    findings,
    warnings,
    errors: [],
  };
}

function boundedMatcher(): { matches: (expect: Expect, text: string) => boolean; exhausted: () => boolean } {
  let timeouts = 0;
  return {
    matches: (expect, text) => {
      if (expect.kind === 'regex' && timeouts >= MAX_REGEX_TIMEOUTS) return false;
      const result = matchExpect(expect, text.slice(0, MAX_SUBJECT), REGEX_CAP_MS);
      if (!result.ok) timeouts++;
      return result.ok && result.matched;
    },
    exhausted: () => timeouts >= MAX_REGEX_TIMEOUTS,
  };
}

/**
 * Each gate's working directory, the files its DEPENDS globs match now, and which globs
 * match any file (for suggestions that must name existing files). fast-glob, no links followed.
 */
async function gateContexts(ws: Workspace): Promise<Map<Gate, GateContext>> {
  const needed = ws.ledgers.some((l) => l.ledger.gates.some((g) => g.depends !== null || g.kind === 'runnable'));
  const expand = needed ? await globExpander(ws.root.path) : null;
  const hasFiles = (glob: string) => expand !== null && expand([glob]).size > 0;
  const contexts = new Map<Gate, GateContext>();
  const packageScript = packageScriptReader(ws.root.path);
  for (const l of ws.ledgers) {
    for (const gate of l.ledger.gates) {
      contexts.set(gate, {
        workdir: gateWorkdir(gate.cwd),
        dependsMatched: expand && gate.depends ? expand(gate.depends) : new Set(),
        hasFiles,
        packageScript,
      });
    }
  }
  return contexts;
}

/** package.json scripts as text, each file read once (readRepositoryText: inside the repository, bounded, no link out). */
function packageScriptReader(root: string): (dir: string, name: string) => string | null {
  const scripts = new Map<string, Record<string, unknown> | null>();
  return (dir, name) => {
    const file = dir === '.' ? 'package.json' : `${dir}/package.json`;
    let known: Record<string, unknown> | null | undefined = scripts.get(file);
    if (known === undefined) {
      known = null;
      try {
        const pkg: unknown = JSON.parse(readRepositoryText(root, file) ?? 'null');
        const s = isPlainObject(pkg) && Object.hasOwn(pkg, 'scripts') ? pkg.scripts : null;
        if (isPlainObject(s)) known = s;
      } catch {
        // Not JSON: npm would not run it either; nothing to read.
      }
      scripts.set(file, known);
    }
    const text = known !== null && Object.hasOwn(known, name) ? known[name] : null;
    return typeof text === 'string' ? text : null;
  };
}

type FastGlob = typeof import('fast-glob');

async function globExpander(root: string): Promise<(globs: readonly string[]) => Set<string>> {
  const fg = ((await import('fast-glob')) as unknown as { default: FastGlob }).default;
  const cache = new Map<string, string[]>();
  return (globs) => {
    const files = new Set<string>();
    for (const glob of globs) {
      let matched = cache.get(glob);
      if (matched === undefined) {
        // Unreadable directories only shrink the matched set, which can only add findings.
        matched = fg.sync(glob, { cwd: root, dot: true, followSymbolicLinks: false, unique: true, caseSensitiveMatch: true, suppressErrors: true });
        cache.set(glob, matched);
      }
      for (const f of matched) files.add(f);
    }
    return files;
  };
}

function errorReport(error: unknown): LintReport {
  let errors: Diagnostic[];
  let warnings: Diagnostic[] = [];
  if (error instanceof ParseError) {
    errors = error.diagnostics;
    warnings = error.warnings;
  } else {
    const message = error instanceof GateCheckError || error instanceof Error ? error.message : String(error);
    errors = [{ message }];
  }
  return {
    schema: LINT_SCHEMA,
    exitCode: 2,
    root: '',
    files: [],
    summary: { findings: 0, gates: 0, byRule: {} },
    findings: [],
    warnings,
    errors,
  };
}
