// makeRecipes and BUILD_INDIRECTION: a makefile's recipe lines as the shell receives them, and
// the forms whose names the text alone does not say (pure).
import { describe, expect, it } from 'vitest';
import { BUILD_INDIRECTION, makeRecipes } from '../../lib/lint/makefile-text.js';

describe('makeRecipes', () => {
  it('takes the tab-led lines without the tab and the @ - + prefixes, and nothing else', () => {
    expect(makeRecipes('X = 1\ntest: build\n\t@sh t.sh\n\t-rm -f out\n\t+ $(MAKE) sub\n# \tnot a recipe\n')).toEqual({ recipes: ['sh t.sh', 'rm -f out', '$(MAKE) sub'], cut: false });
  });

  it('joins a line continued by an odd number of backslashes, as make and the shell do; an even number ends it', () => {
    expect(makeRecipes('t:\n\tsh scr\\\n\tipts/t.sh\n').recipes).toEqual(['sh scripts/t.sh']);
    expect(makeRecipes('t:\n\techo a\\\\\n\tsh b.sh\n').recipes).toEqual(['echo a\\\\', 'sh b.sh']);
    expect(makeRecipes('t:\n\techo \\\\\\\n\tx\n').recipes).toEqual(['echo \\\\x']);
  });

  it('stops past 512 recipe lines and says so', () => {
    const many = makeRecipes(`t:\n${'\ttrue\n'.repeat(513)}`);
    expect(many.recipes).toHaveLength(512);
    expect(many.cut).toBe(true);
    expect(makeRecipes(`t:\n${'\ttrue\n'.repeat(512)}`).cut).toBe(false);
  });
});

describe('BUILD_INDIRECTION', () => {
  it('finds variables, cd in any recipe position, -C, include patterns, subninja and vpath', () => {
    for (const text of ['t:\n\tsh $(S)/t.sh\n', 't:\n\t@cd sub && sh t.sh\n', 't:\n\t$(MAKE) -C sub\n', 'include mk/*.mk\n', 'subninja x.ninja\n', 'vpath %.c src\n', 't:\n\tsh $<\n']) {
      expect(BUILD_INDIRECTION.test(text)).toBe(true);
    }
    for (const text of ['t:\n\tsh t.sh\n', 'include rules.mk\n', 't:\n\techo abcd\n']) expect(BUILD_INDIRECTION.test(text)).toBe(false);
  });
});
