// Lints ledger text through the pure entry point, with a stand-in for the disk.
import type { Gate } from '../../lib/ledger/types.js';
import { globMatches } from '../../lib/lint/glob.js';
import { lintLedger } from '../../lib/lint/lint.js';
import type { Finding, GateContext, RuleId } from '../../lib/lint/types.js';
import { matchExpect } from '../../lib/run/expect-match.js';
import { parseOk } from '../helpers/ledger.js';

export const match = (e: Parameters<typeof matchExpect>[0], text: string) => {
  const r = matchExpect(e, text, 50);
  return r.ok && r.matched;
};

export interface LintContext extends Partial<GateContext> {
  /** Repository-relative files on disk: they decide hasFiles (and dependsMatched, unless given). */
  files?: readonly string[];
}

/** Lints one ledger text; `files` stands in for the disk (DEPENDS matches, which globs match files). */
export function lint(source: string, context: LintContext = {}): Finding[] {
  const ledger = parseOk(source);
  const { files = [], ...rest } = context;
  const hasFiles = (glob: string) => files.some((f) => globMatches(glob, f));
  const ctxOf = (g: Gate): GateContext => ({
    workdir: '.',
    dependsMatched: new Set(files.filter((f) => (g.depends ?? []).some((d) => globMatches(d, f)))),
    hasFiles,
    ...rest,
  });
  return lintLedger({ file: 'GATES.md', stem: 'GATES', gates: ledger.gates }, ctxOf, match);
}

/** A runnable gate with a title that names an outcome. */
export function gate(check: string, expectText: string, extra: string[] = [], title = 'the importer keeps every row'): string {
  return [`- [ ] G1: ${title}`, `  CHECK: ${check}`, `  EXPECT: ${expectText}`, ...extra].join('\n') + '\n';
}

export const rules = (findings: Finding[]) => findings.map((f) => f.rule);
export const only = (findings: Finding[], rule: RuleId) => findings.filter((f) => f.rule === rule);
