// The formatter: rewrites only what a run changes (a gate's box, its EVIDENCE line, or an
// inserted EVIDENCE line) and keeps every other byte, each line's own ending and the
// presence or absence of a final newline. Pure.
import { joinLines, type Eol, type SourceLine } from './lines.js';
import type { Ledger } from './types.js';

export interface GateEdit {
  id: string;
  checked?: boolean;
  evidence?: string;
}

const SAFE_EVIDENCE = /^[\x20-\x7e]*$/;

export function formatLedger(ledger: Ledger, edits: readonly GateEdit[]): string {
  const lines: SourceLine[] = ledger.lines.map((l) => ({ ...l }));
  const inserts: { after: number; indent: string; value: string }[] = [];

  for (const edit of edits) {
    const gate = ledger.gates.find((g) => g.id === edit.id);
    if (!gate) throw new Error(`formatLedger: no gate ${edit.id}`);
    if (edit.checked !== undefined) {
      const line = lines[gate.lineIndex]!;
      const bom = line.text.charCodeAt(0) === 0xfeff ? 1 : 0;
      const box = edit.checked ? 'x' : ' ';
      const old = line.text[bom + 3];
      // Keep an existing 'X' when the box stays checked.
      if ((old === ' ') === edit.checked) {
        line.text = line.text.slice(0, bom + 3) + box + line.text.slice(bom + 4);
      }
    }
    if (edit.evidence !== undefined) {
      if (!SAFE_EVIDENCE.test(edit.evidence)) throw new Error('formatLedger: evidence must be printable ASCII on one line');
      if (gate.evidenceIndex !== null) {
        const line = lines[gate.evidenceIndex]!;
        const indent = /^[ \t]*/.exec(line.text)![0];
        const next = `${indent}EVIDENCE: ${edit.evidence}`;
        // An unchanged value keeps the line's original spacing byte for byte.
        if (line.text.slice(line.text.indexOf(':') + 1).trim() !== edit.evidence) line.text = next;
      } else {
        inserts.push({ after: gate.lastAttributeIndex, indent: gate.attributeIndent, value: edit.evidence });
      }
    }
  }

  inserts.sort((a, b) => b.after - a.after);
  for (const ins of inserts) {
    const prev = lines[ins.after]!;
    let eol: Eol = prev.eol;
    if (eol === '') {
      // The insertion point is the last line and has no newline: give it one, and keep the
      // file ending without a newline.
      prev.eol = dominantEol(lines);
    }
    lines.splice(ins.after + 1, 0, { text: `${ins.indent}EVIDENCE: ${ins.value}`, eol });
  }
  return joinLines(lines);
}

function dominantEol(lines: readonly SourceLine[]): Eol {
  let crlf = 0;
  let lf = 0;
  for (const l of lines) {
    if (l.eol === '\r\n') crlf++;
    else if (l.eol === '\n') lf++;
  }
  return crlf > lf ? '\r\n' : '\n';
}
