// What a makefile's text says to the UNBOUND reading (named-files.ts): its recipe lines as the
// shell receives them, and the forms whose names its text alone does not say. Pure.

/** What a build file names that its text alone does not say. */
export const BUILD_INDIRECTION = /\$[({A-Za-z_<@^?*%]|(?:^|[\s;&|(@+-])cd\s|(?:^|\s)-C\s*\S|^[ \t]*-?s?include[ \t]+[^\n]*[*?[]|^\s*subninja\s|^\s*vpath\s/m;
/**
 * The recipe lines of a makefile, each as the shell receives it: without the tab and the
 * `@`, `-` and `+` prefixes, a line continued by a backslash joined as make and the shell
 * join it (make drops the tab after the newline, the shell the backslash-newline).
 */
export function makeRecipes(text: string): { recipes: string[]; cut: boolean } {
  const recipes: string[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const first = lines[i]!;
    if (!first.startsWith('\t')) continue;
    if (recipes.length === MAX_RECIPES) return { recipes, cut: true };
    // Whether a physical line ends in an odd number of backslashes is read off that line alone
    // (testing the joined line each time was quadratic: round-19 F5).
    const parts = [first];
    for (let last = first; continued(last) && i + 1 < lines.length; ) parts.push((last = lines[++i]!.replace(/^\t/, '')));
    const line = parts.join('\n');
    // The shell drops a backslash-newline (outside single quotes, which a recipe rarely continues).
    recipes.push(line.replace(/^\t[@+\-\s]*/, '').replace(/\\\n/g, ''));
  }
  return { recipes, cut: false };
}
const MAX_RECIPES = 512;
/** Whether a line ends in an odd number of backslashes (counted, not matched: no backtracking). */
function continued(line: string): boolean {
  let n = 0;
  while (n < line.length && line.charCodeAt(line.length - 1 - n) === 92) n++;
  return n % 2 === 1;
}
