// The TeX commands the parser refuses inside a pair of $ that GitHub renders as math
// (lib/ledger/tex-math.ts), against MathJax itself, which GitHub renders math with: every
// command MathJax defines is refused, and every one the parser leaves alone MathJax draws as
// its own name (in red) or as the character it stands for, so the page still shows it.
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
function mathml(): (tex: string) => string {
  const { mathjax } = require('mathjax-full/js/mathjax.js');
  const { TeX } = require('mathjax-full/js/input/tex.js');
  const { SerializedMmlVisitor } = require('mathjax-full/js/core/MmlTree/SerializedMmlVisitor.js');
  const { liteAdaptor } = require('mathjax-full/js/adaptors/liteAdaptor.js');
  const { RegisterHTMLHandler } = require('mathjax-full/js/handlers/html.js');
  const { AllPackages } = require('mathjax-full/js/input/tex/AllPackages.js');
  const { STATE } = require('mathjax-full/js/core/MathItem.js');
  RegisterHTMLHandler(liteAdaptor());
  const doc = mathjax.document('', { InputJax: new TeX({ packages: (AllPackages as string[]).filter((p) => p !== 'bussproofs') }) });
  const visitor = new SerializedMmlVisitor();
  return (tex) => visitor.visitTree(doc.convert(tex, { end: STATE.CONVERT }));
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
        expect(TEX_MACROS.has(name), name).toBe(true);
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
