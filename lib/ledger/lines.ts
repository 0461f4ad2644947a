// A ledger as lines that remember their own endings, so that writing it back changes no
// byte that was not meant to change.

export type Eol = '' | '\n' | '\r\n';

export interface SourceLine {
  /** The line without its ending (a leading BOM stays on line 1 here, so bytes round-trip). */
  text: string;
  eol: Eol;
}

export function splitLines(source: string): SourceLine[] {
  const lines: SourceLine[] = [];
  let start = 0;
  for (;;) {
    const nl = source.indexOf('\n', start);
    if (nl === -1) {
      if (start < source.length) lines.push({ text: source.slice(start), eol: '' });
      return lines;
    }
    if (nl > start && source.charCodeAt(nl - 1) === 13) {
      lines.push({ text: source.slice(start, nl - 1), eol: '\r\n' });
    } else {
      lines.push({ text: source.slice(start, nl), eol: '\n' });
    }
    start = nl + 1;
  }
}

export function joinLines(lines: readonly SourceLine[]): string {
  let out = '';
  for (const l of lines) out += l.text + l.eol;
  return out;
}
