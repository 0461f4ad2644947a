// Colour for the verdict words of a run or a status (PASS, FAIL, ALL MET, ...) on a terminal.
// Only the words gate-check itself puts at the start of a line are coloured: untrusted text
// (titles, output, reasons) is sanitized to one line and never starts one, so it cannot
// choose a colour, and nothing is coloured inside it. Pure: the caller says whether stdout
// is a terminal.

/**
 * Whether stdout gets colour. FORCE_COLOR decides when set (0 or false: never; anything
 * else: always, pipes included), as it does for Node itself; else NO_COLOR (any non-empty
 * value) turns it off; else colour only on a terminal whose TERM is not "dumb".
 */
export function colourWanted(env: NodeJS.ProcessEnv, stdoutIsTTY: boolean): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return stdoutIsTTY && env.TERM !== 'dumb';
}

const GREEN = '\u001b[32m';
const RED = '\u001b[31m';
const YELLOW = '\u001b[33m';
const RESET = '\u001b[39m';

const WORDS: ReadonlyArray<readonly [string, string]> = [
  ['APPROVAL REQUIRED', YELLOW],
  ['HANDOFF REQUIRED', YELLOW],
  ['ALL MET', GREEN],
  ['NOT RUN', YELLOW],
  ['UNMET', RED],
  ['STALE', YELLOW],
  ['PASS', GREEN],
  ['FAIL', RED],
];

/**
 * `line` with its leading verdict word coloured, if it starts with one followed by a space,
 * `: ` or its end. Not `PASS:G1`: a ledger named PASS.md starts its gates' lines so, and a
 * reviewer must not see a green PASS on an open gate.
 */
export function colourLine(line: string): string {
  for (const [word, colour] of WORDS) {
    if (!line.startsWith(word)) continue;
    const rest = line.slice(word.length);
    if (rest !== '' && !rest.startsWith(' ') && !rest.startsWith(': ')) continue;
    return `${colour}${word}${RESET}${line.slice(word.length)}`;
  }
  return line;
}

/**
 * A writer that colours the verdict word at the start of each line. It remembers whether
 * the last write ended a line, so a write that continues a line is never taken for a new one.
 */
export function colouringWriter(write: (text: string) => void): (text: string) => void {
  let atLineStart = true;
  return (text) => {
    if (text === '') return;
    const lines = text.split('\n');
    const out = lines.map((l, i) => (i === 0 && !atLineStart ? l : colourLine(l)));
    atLineStart = text.endsWith('\n');
    write(out.join('\n'));
  };
}
