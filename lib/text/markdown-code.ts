// A Markdown code span around one line of text that may hold backticks (a directory named
// a`b): the fence is one backtick longer than the longest run inside, so the span ends where
// the text does (CommonMark 6.1). The host shows the hook's reason as Markdown. Pure.

/** `text` as an inline code span that a CommonMark reader shows exactly (text holds no line break). */
export function markdownCode(text: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  // A reader strips one space from each side when both are there (or a backtick would touch the fence).
  const pad = text.startsWith('`') || text.endsWith('`') || (text.startsWith(' ') && text.endsWith(' ') && text.trim() !== '') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/**
 * Repository text (a gate id, a file name) in the running Markdown of a message: a backtick
 * or '<' in it could otherwise open a code span or an HTML tag that swallows the commands
 * after it. Each is escaped with a backslash, and so is a backslash before punctuation.
 */
export function markdownText(text: string): string {
  return text.replace(/[`<]|\\(?=[!-/:-@[-`{-~])/g, (c) => `\\${c}`);
}
