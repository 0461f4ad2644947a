// CI runners read commands out of a job's log. GitHub Actions' runner takes a line that
// starts with "::" (after any leading whitespace, as .NET's TrimStart sees it) as a workflow
// command, and its legacy parser takes "##[command]" ANYWHERE in a line (as Azure Pipelines
// does with "##vso["). Text from a ledger, a check or a file name must never become one: it
// could forge annotations, set step outputs, or stop command processing and so silence
// gate-check's own annotations. Pure.

/** .NET char.IsWhiteSpace, plus U+FEFF and U+180E (older .NET counted them). */
const LEADING_SPACE = '[\\s\\u0085\\u180E\\uFEFF]*';
const LINE_START_COMMAND = new RegExp(`^${LEADING_SPACE}::`);

/**
 * Untrusted text about to start an output line: a leading "::" gets a visible backslash in
 * front, so that no runner reads the line as a workflow command.
 */
export function guardLineStart(text: string): string {
  return LINE_START_COMMAND.test(text) ? `\\${text}` : text;
}

/** "##[", "##vso[" and the like: the legacy command forms that match anywhere in a line. */
const LEGACY_COMMAND = /##([A-Za-z]{0,16})\[/g;
/** How far a legacy command can reach back into the previous write. */
const TAIL = 20;

/**
 * The legacy command forms written with "[" as \u005b. In a JSON document (where "##" can
 * only occur inside a string) this is the same string; in text it is a visible escape.
 */
export function escapeLegacyCommands(text: string): string {
  return text.includes('##') ? text.replace(LEGACY_COMMAND, '##$1\\u005b') : text;
}

/** Whether this process writes a log that a runner parses for commands. */
export function parsesLogCommands(env: NodeJS.ProcessEnv): boolean {
  return env.GITHUB_ACTIONS === 'true' || (env.TF_BUILD !== undefined && env.TF_BUILD !== '');
}

/**
 * A writer that escapes legacy commands, also when one is split across two writes (the end
 * of the previous write is remembered; only the "[" in the new text ever changes).
 */
export function legacyCommandGuard(write: (text: string) => void): (text: string) => void {
  let tail = '';
  return (text) => {
    if (text === '') return;
    const escaped = tail.includes('#') || text.includes('#') ? escapeLegacyCommands(tail + text).slice(tail.length) : text;
    tail = (tail + escaped).slice(-TAIL);
    write(escaped);
  };
}
