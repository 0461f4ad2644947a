// How the GitHub Actions runner reads a step's output for workflow commands
// (actions/runner: src/Runner.Common/ActionCommand.cs, src/Runner.Worker/ActionCommandManager.cs),
// re-implemented for tests: lines split as .NET's ReadLine does (\r\n, \r, \n); the modern
// form "::cmd props::data" at the start of a line after .NET whitespace; the legacy form
// "##[cmd props]data" ANYWHERE in a line (its first "##["); commands are case-insensitive;
// "stop-commands" ignores every command until its token comes back as a command.

export interface RunnerCommand {
  command: string;
  properties: Record<string, string>;
  data: string;
  form: 'modern' | 'legacy';
  line: string;
}

const REGISTERED = ['stop-commands', 'set-env', 'set-output', 'save-state', 'add-mask', 'add-path', 'add-matcher', 'remove-matcher', 'warning', 'error', 'notice', 'debug', 'group', 'endgroup', 'echo'];

/** .NET char.IsWhiteSpace. */
const DOTNET_LEADING_SPACE = /^[\t\n\v\f\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+/;

function unescape(text: string, mappings: [string, string][]): string {
  let out = text;
  for (const [token, replacement] of mappings) out = out.split(replacement).join(token);
  return out;
}
const DATA: [string, string][] = [
  ['\r', '%0D'],
  ['\n', '%0A'],
  ['%', '%25'],
];
const PROPERTY: [string, string][] = [
  ['\r', '%0D'],
  ['\n', '%0A'],
  [':', '%3A'],
  [',', '%2C'],
  ['%', '%25'],
];
const LEGACY: [string, string][] = [
  [';', '%3B'],
  ['\r', '%0D'],
  ['\n', '%0A'],
  [']', '%5D'],
  ['%', '%25'],
];

function parseModern(line: string, registered: Set<string>): RunnerCommand | null {
  const message = line.replace(DOTNET_LEADING_SPACE, '');
  if (!message.startsWith('::')) return null;
  const end = message.indexOf('::', 2);
  if (end < 0) return null;
  const info = message.slice(2, end);
  const space = info.indexOf(' ');
  const command = space < 0 ? info : info.slice(0, space);
  if (!registered.has(command.toLowerCase())) return null;
  const properties: Record<string, string> = {};
  if (space > 0) {
    for (const p of info.slice(space + 1).trim().split(',').filter(Boolean)) {
      const eq = p.indexOf('=');
      if (eq > 0 && eq < p.length - 1) properties[p.slice(0, eq)] = unescape(p.slice(eq + 1), PROPERTY);
    }
  }
  return { command: command.toLowerCase(), properties, data: unescape(message.slice(end + 2), DATA), form: 'modern', line };
}

function parseLegacy(line: string, registered: Set<string>): RunnerCommand | null {
  const start = line.indexOf('##[');
  if (start < 0) return null;
  const rb = line.indexOf(']', start);
  if (rb < 0) return null;
  const info = line.slice(start + 3, rb);
  const space = info.indexOf(' ');
  const command = space < 0 ? info : info.slice(0, space);
  if (!registered.has(command.toLowerCase())) return null;
  const properties: Record<string, string> = {};
  if (space > 0) {
    for (const p of info.slice(space + 1).split(';').filter(Boolean)) {
      const eq = p.indexOf('=');
      if (eq > 0 && eq < p.length - 1) properties[p.slice(0, eq)] = unescape(p.slice(eq + 1), LEGACY);
    }
  }
  return { command: command.toLowerCase(), properties, data: unescape(line.slice(rb + 1), LEGACY), form: 'legacy', line };
}

/** Every command the runner would process in this output (one stream), in order. */
export function runnerCommands(output: string): RunnerCommand[] {
  const registered = new Set(REGISTERED);
  let stopToken: string | null = null;
  const out: RunnerCommand[] = [];
  for (const line of output.split(/\r\n|\r|\n/)) {
    if (line === '') continue;
    const c = parseModern(line, registered) ?? parseLegacy(line, registered);
    if (!c) continue;
    if (stopToken !== null) {
      if (c.command === stopToken.toLowerCase()) {
        registered.delete(stopToken.toLowerCase());
        stopToken = null;
        out.push(c);
      }
      continue;
    }
    out.push(c);
    if (c.command === 'stop-commands') {
      stopToken = c.data;
      registered.add(c.data.toLowerCase());
    }
  }
  return out;
}
