// The hosts the Stop hook answers, by the name `--host` takes.
import { claudeHost } from './host-claude.js';
import { codexHost } from './host-codex.js';
import { copilotHost } from './host-copilot.js';
import { cursorHost } from './host-cursor.js';
import { geminiHost } from './host-gemini.js';
import type { HostAdapter, HostName } from './stop-types.js';

export const HOSTS: Readonly<Record<HostName, HostAdapter>> = {
  claude: claudeHost,
  codex: codexHost,
  copilot: copilotHost,
  gemini: geminiHost,
  cursor: cursorHost,
};

export const HOST_NAMES = Object.keys(HOSTS) as HostName[];

export function hostByName(name: string): HostAdapter | null {
  return Object.hasOwn(HOSTS, name) ? HOSTS[name as HostName] : null;
}
