// Strikethrough that runs from one line of a gate into another (GFM: a pair of one or two
// tildes, matched across the lines of a paragraph). GitHub shows a gate and its attribute
// lines as one paragraph, so "~~" in a note and "~~" at the end of `CWD: fixtures~~` strike
// out the lines between: the page shows a live attribute as deleted text. Within one line a
// strikethrough only styles what stays visible, and is left alone. Pure; linear in the text.

export interface ParagraphLine {
  /** 1-based line number. */
  line: number;
  /** The line's text (its indentation does not matter to inline parsing). */
  text: string;
  /** The attribute the line is (CHECK, CWD, …), or null for the gate line and notes. */
  attribute: string | null;
}

export interface StrikeAcross {
  /** Where the opening tildes are. */
  line: number;
  column: number;
  /** One or two tildes. */
  tildes: string;
  /** The line of the closing tildes. */
  to: number;
  /** The first attribute line the strikethrough covers. */
  attribute: string;
  attributeLine: number;
}

interface Run {
  lineAt: number;
  index: number;
  length: number;
  open: boolean;
  close: boolean;
}

const isSpace = (c: string | undefined) => c === undefined || /\s/u.test(c);
const isPunctuation = (c: string | undefined) => c !== undefined && /[\p{P}\p{S}]/u.test(c);

/** Tilde runs of one or two, with what CommonMark's flanking rules let each do. */
function tildeRuns(lines: readonly ParagraphLine[]): Run[] {
  const runs: Run[] = [];
  for (let n = 0; n < lines.length; n++) {
    const text = lines[n]!.text;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c === '\\') {
        i++;
        continue;
      }
      if (c !== '~') continue;
      let j = i;
      while (text[j] === '~') j++;
      const length = j - i;
      // A line break is whitespace on both sides of it.
      const before = i === 0 ? undefined : text[i - 1];
      const after = j >= text.length ? undefined : text[j];
      const left = !isSpace(after) && (!isPunctuation(after) || isSpace(before) || isPunctuation(before));
      const right = !isSpace(before) && (!isPunctuation(before) || isSpace(after) || isPunctuation(after));
      if (length <= 2 && (left || right)) runs.push({ lineAt: n, index: i, length, open: left, close: right });
      i = j - 1;
    }
  }
  return runs;
}

/** The first strikethrough that starts on one line and covers an attribute line below it, or null. */
export function strikeAcrossAttributes(lines: readonly ParagraphLine[]): StrikeAcross | null {
  if (!lines.some((l) => l.text.includes('~'))) return null;
  const openers: Run[] = [];
  for (const run of tildeRuns(lines)) {
    if (run.close) {
      let k = openers.length - 1;
      while (k >= 0 && openers[k]!.length !== run.length) k--;
      if (k >= 0) {
        const opener = openers[k]!;
        // The delimiters between a matched pair are no longer openers.
        openers.length = k;
        if (opener.lineAt !== run.lineAt) {
          for (let m = opener.lineAt + 1; m <= run.lineAt; m++) {
            const covered = lines[m]!;
            if (covered.attribute !== null) {
              const from = lines[opener.lineAt]!;
              return { line: from.line, column: opener.index + 1, tildes: '~'.repeat(opener.length), to: lines[run.lineAt]!.line, attribute: covered.attribute, attributeLine: covered.line };
            }
          }
        }
        continue;
      }
    }
    if (run.open) openers.push(run);
  }
  return null;
}
