// JUnit XML for Jenkins, GitLab, Azure and GitHub test reporters: one <testsuite> per ledger,
// one <testcase> per gate. Only gate-check's own messages go in; check output never does
// (it stays on the terminal). Text is sanitized, XML-escaped, and stripped of characters
// XML 1.0 forbids. Pure.
import { sanitizeLine } from '../text/sanitize.js';
import { openTreeItems, type GateReport, type Mode, type Report } from './model.js';
import { gateOutcome, type GateOutcome } from './outcome.js';

/** Characters XML 1.0 allows: TAB, LF, CR, U+0020–U+D7FF, U+E000–U+FFFD, U+10000–U+10FFFF. */
const XML_FORBIDDEN = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function xmlText(text: string, cap = 1000): string {
  return sanitizeLine(text, cap)
    .replace(XML_FORBIDDEN, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function seconds(ms: number | null): string {
  return ((ms ?? 0) / 1000).toFixed(3);
}

/** A shard's report lists every gate and runs only its share: a gate it did not run is the merged report's to judge. */
const NOT_THIS_SHARD: GateOutcome = { kind: 'skipped', message: "not run by this shard (another shard's gate, or one this shard did not re-run): the merged report gives its verdict" };

const MANUAL_MET = "manual gate, met: its evidence is a person's word, which gate-check does not check";

function testcase(g: GateReport, stem: string, mode: Mode, strict: boolean, shard: boolean): { xml: string; failed: boolean; skipped: boolean; ms: number } {
  const o = shard && g.result === null ? NOT_THIS_SHARD : gateOutcome(g, mode, strict);
  const ms = g.result?.durationMs ?? 0;
  const open = `    <testcase classname="${xmlText(stem, 200)}" name="${xmlText(`${g.id}: ${g.title}`, 300)}" file="${xmlText(g.file, 300)}" line="${g.line}" time="${seconds(ms)}"`;
  // A ticked manual gate is met on a person's word, which gate-check does not check: skipped,
  // never a passing test case (round-39u U3), as references/ci.md says.
  if (o.kind === 'passed' && g.kind === 'manual') return { xml: `${open}>\n      <skipped message="${xmlText(MANUAL_MET, 1000)}"/>\n    </testcase>`, failed: false, skipped: true, ms };
  if (o.kind === 'passed') return { xml: `${open}/>`, failed: false, skipped: false, ms };
  const msg = xmlText(o.message, 1000);
  // A gate that waits for approval fails the run (exit 1): a failure here too, as in the
  // annotations, or a report view looks clean (round-35 F3). A gate of another shard or a
  // handed-off one stays skipped; an open manual gate fails (gateOutcome).
  if (o.kind === 'skipped' && g.result?.status !== 'approval-required') return { xml: `${open}>\n      <skipped message="${msg}"/>\n    </testcase>`, failed: false, skipped: true, ms };
  return { xml: `${open}>\n      <failure message="${msg}" type="gate">${msg}</failure>\n    </testcase>`, failed: true, skipped: false, ms };
}

export function renderJunit(report: Report, strict = false): string {
  const byFile = new Map<string, GateReport[]>();
  for (const g of report.gates) byFile.set(g.file, [...(byFile.get(g.file) ?? []), g]);
  let tests = 0;
  let failures = 0;
  let skipped = 0;
  let totalMs = 0;
  const suites: string[] = [];
  for (const [file, gates] of byFile) {
    const stem = gates[0]!.qualified.slice(0, gates[0]!.qualified.length - gates[0]!.id.length - 1);
    const cases = gates.map((g) => testcase(g, stem, report.mode, strict, report.shard !== null));
    const f = cases.filter((c) => c.failed).length;
    const s = cases.filter((c) => c.skipped).length;
    const ms = cases.reduce((a, c) => a + c.ms, 0);
    tests += cases.length;
    failures += f;
    skipped += s;
    totalMs += ms;
    suites.push(
      `  <testsuite name="${xmlText(file, 300)}" tests="${cases.length}" failures="${f}" errors="0" skipped="${s}" time="${seconds(ms)}">\n${cases.map((c) => c.xml).join('\n')}\n  </testsuite>`,
    );
  }
  // The open scopes and waves the verdict counts beyond its gates: a failing case each, in a
  // suite of their own (round-39v V6: an unmet scope gate failed the run and no case said so).
  const tree = report.shard ? [] : openTreeItems(report);
  if (tree.length > 0) {
    const cases = tree.map((t) => {
      const msg = xmlText(`not met: ${t.open.slice(0, 50).join(', ')}${t.open.length > 50 ? ', …' : ''}`, 1000);
      return `    <testcase classname="gate-check" name="${xmlText(t.label, 300)}" time="0.000">\n      <failure message="${msg}" type="gate">${msg}</failure>\n    </testcase>`;
    });
    tests += cases.length;
    failures += cases.length;
    suites.push(`  <testsuite name="scopes and waves" tests="${cases.length}" failures="${cases.length}" errors="0" skipped="0" time="0.000">\n${cases.join('\n')}\n  </testsuite>`);
  }
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<testsuites name="gate-check" tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds(totalMs)}">\n` +
    suites.join('\n') +
    (suites.length > 0 ? '\n' : '') +
    '</testsuites>\n'
  );
}
