// The TeX commands the parser refuses inside a pair of $ that GitHub renders as math
// (lib/ledger/tex-math.ts), against MathJax itself, which GitHub renders math with: every
// command MathJax defines is refused, and every one the parser leaves alone MathJax draws as
// its own name (in red) or as the character it stands for, so the page still shows it. And
// TeX syntax: whatever the parser leaves alone inside such a pair, MathJax draws without an
// error box (which would replace the whole formula), and what it refuses is an error there.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TEX_MACROS } from '../../lib/ledger/tex-macros-table.js';
import { NO_MATH, texCommentInMath } from '../../lib/ledger/tex-math.js';

const ROOT = join(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);

/** MathJax's MathML for `tex` (every package but bussproofs, which needs a real output). */
let renderer: ((tex: string) => string) | undefined;
function mathml(): (tex: string) => string {
  if (renderer !== undefined) return renderer;
  const { mathjax } = require('mathjax-full/js/mathjax.js');
  const { TeX } = require('mathjax-full/js/input/tex.js');
  const { SerializedMmlVisitor } = require('mathjax-full/js/core/MmlTree/SerializedMmlVisitor.js');
  const { liteAdaptor } = require('mathjax-full/js/adaptors/liteAdaptor.js');
  const { RegisterHTMLHandler } = require('mathjax-full/js/handlers/html.js');
  const { AllPackages } = require('mathjax-full/js/input/tex/AllPackages.js');
  const { STATE } = require('mathjax-full/js/core/MathItem.js');
  RegisterHTMLHandler(liteAdaptor());
  // Without noerrors: GitHub shows MathJax's error message (and this test looks for <merror>).
  const packages = (AllPackages as string[]).filter((p) => p !== 'bussproofs' && p !== 'noerrors');
  const doc = mathjax.document('', { InputJax: new TeX({ packages }) });
  const visitor = new SerializedMmlVisitor();
  renderer = (tex) => visitor.visitTree(doc.convert(tex, { end: STATE.CONVERT }));
  return renderer;
}

/** What the parser says of `\name` inside a pair of $ on one line. */
function refused(name: string): boolean {
  return texCommentInMath(`$a \\${name}{x} b$`, 1, NO_MATH).hidden !== null;
}

describe('TeX commands inside math, against MathJax', () => {
  it('the table is what mathjax-full defines (scripts/gen-tex-macros.mjs --check)', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts/gen-tex-macros.mjs'), '--check'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
  });

  it('a command left alone is drawn by MathJax as its name or its character', () => {
    const render = mathml();
    const shownAsName = (name: string) => render(`a \\${name}{x} b`).includes(`<mtext mathcolor="red">\\${name}</mtext>`);
    // Regex and printf escapes, words after them, punctuation, and MathJax's own commands.
    const names = fc.sample(fc.oneof(fc.stringMatching(/^[A-Za-z]{1,8}$/), fc.constantFrom(...'!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~ '.split('')), fc.constantFrom(...TEX_MACROS)), { numRuns: 400, seed: 39 });
    for (const name of [...names, 'd', 'n', 'b', 'nexit', 'bfoo', 'Rule', 'rule', '!', ',']) {
      // The table may refuse more than one configuration of MathJax defines (a command of a
      // package GitHub may not load): never less.
      if (refused(name)) {
        // `\\` is a line break that takes an argument in brackets (round-40a F3).
        // and the one-character ones drawn without their backslash (round-40b N2, N5).
        expect(TEX_MACROS.has(name) || '\\#$%&_{}|'.includes(name), name).toBe(true);
      } else if (/^[A-Za-z]+$/.test(name)) {
        expect(shownAsName(name), name).toBe(true);
      } else {
        // One character: undefined (drawn as its name) or one that stands for itself.
        const out = render(`a \\${name}{x} b`);
        expect(shownAsName(name) || '$%&#_{}|\\'.includes(name) || !/mspace|mpadded|merror/.test(out), `${name}: ${out}`).toBe(true);
      }
    }
  });
});

/** What the parser says of the lines of one paragraph: the first thing a closed pair hides, or null. */
function hiddenIn(lines: string[]) {
  let state = NO_MATH;
  for (const [n, line] of lines.entries()) {
    const r = texCommentInMath(line, n + 1, state);
    if (r.hidden !== null) return r.hidden;
    state = r.state;
  }
  return null;
}

// Tokens of TeX's syntax, characters that stand for themselves, commands MathJax does not
// define, and what packages read specially ('@' arrows of amscd, ':' of mathtools, '|', ')').
const TOKEN = fc.constantFrom(
  ...['a', 'x', 'lim', '1', '2', ' ', '  ', "'", '\u2019', '^', '_', '{', '}', '{', '}', '&', '#', '~', ';', ':', '"', '.', '-', '|', ')', ']', '(', '['],
  ...['\\d', '\\n', '\\$', '\\{', '\\}', '\\_', '\\&', '\\#', '\\%', '@', '@>', '@.', '@V', '@x', '/', '=', '<', '>', '*', '+', ',', '!', '?', '`', '\u2211', '\u00a0', 'é'],
);
const BODY = fc.array(TOKEN, { minLength: 1, maxLength: 24 }).map((ts) => ts.join(''));

describe('TeX syntax inside math, against MathJax', () => {
  it('a formula the parser leaves alone has no error box; one it refuses for its syntax has one', () => {
    const render = mathml();
    fc.assert(
      fc.property(BODY, (body) => {
        // 'a' and 'b' at the edges: an opening $ before a non-blank, a closing one after one.
        const hidden = hiddenIn([`sh x.sh $a${body}b$ c`]);
        const error = render(`a${body}b`).includes('<merror');
        if (hidden === null) expect(error, `$a${body}b$ renders as an error`).toBe(false);
        else if (hidden.shows === 'error') expect(error, `$a${body}b$ is refused (${hidden.what}: ${hidden.why}) but renders`).toBe(true);
      }),
      { numRuns: 3000, seed: 39 },
    );
  });

  it('across the lines of a paragraph, in the $`…`$ form and in $$…$$, the same', () => {
    const render = mathml();
    fc.assert(
      fc.property(BODY, BODY, fc.constantFrom('inline', 'backtick', 'display'), (one, two, form) => {
        const [open, close] = form === 'inline' ? ['$a', 'b$'] : form === 'backtick' ? ['$`a', 'b`$'] : ['$$a', 'b$$'];
        // The backtick form holds no run of backticks of its own length before its end.
        const [x, y] = form === 'backtick' ? [one.replace(/`/g, "'"), two.replace(/`/g, "'")] : [one, two];
        const hidden = hiddenIn([`- [ ] G1: t ${open}${x}`, `  CHECK: ${y}${close} z`]);
        const error = render(`a${x}\n  CHECK: ${y}b`).includes('<merror');
        if (hidden === null) expect(error, `${open}${x} / ${y}${close} renders as an error`).toBe(false);
      }),
      { numRuns: 1500, seed: 40 },
    );
  });

  it('the shapes of round 39z and everyday shell', () => {
    const render = mathml();
    // Refused: each makes MathJax draw an error box in place of the formula.
    for (const line of [
      'CHECK: sh verify.sh $};touch PWNED;sh verify.sh b$',
      'CHECK: sh verify.sh $#;touch PWNED;sh verify.sh b$',
      'CHECK: sh verify.sh $&;touch PWNED;sh verify.sh b$',
      'CHECK: sh verify.sh $x^1^2;touch PWNED;sh verify.sh b$',
      'CHECK: sh verify.sh $x_1_2;touch PWNED;sh verify.sh b$',
      'CHECK: sh verify.sh $x{;touch PWNED;sh verify.sh b$',
      "CHECK: sh verify.sh $x^a';touch PWNED;sh verify.sh b$",
      'CHECK: sh verify.sh $x@>;touch PWNED;sh verify.sh b$',
      'CHECK: test -d "$HOME/.config/git" && echo ok >> "$HOME/log"',
      'CHECK: test "${#x}" = 0 || echo "$x"',
    ]) {
      const hidden = hiddenIn([line]);
      expect(hidden, line).not.toBeNull();
      const tex = line.slice(line.indexOf('$') + 1, line.lastIndexOf('$'));
      expect(render(tex), line).toContain('<merror');
    }
    // Left alone: braces that balance, one script per base, quotes; MathJax draws every character.
    for (const line of [
      'CHECK: PATH="${HOME}"/bin:"$PATH" x',
      'CHECK: echo ok >> $GITHUB_STEP_SUMMARY; cat $RUNNER_TEMP/x',
      "CHECK: printf '%s' \"$a\" 'b$' c",
    ]) {
      expect(hiddenIn([line]), line).toBeNull();
      const tex = line.slice(line.indexOf('$') + 1, line.lastIndexOf('$'));
      expect(render(tex), line).not.toContain('<merror');
    }
  });
});
