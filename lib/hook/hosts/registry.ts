// The hosts `hook install --host` and `hook doctor` know, in the order doctor reports them.
import { claudeHost } from './claude.js';
import { codexHost } from './codex.js';
import { copilotHost } from './copilot.js';
import { cursorHost } from './cursor.js';
import { geminiHost } from './gemini.js';
import type { HostAdapter, HostId } from './host.js';

export const HOSTS: readonly HostAdapter[] = [claudeHost, codexHost, copilotHost, geminiHost, cursorHost];

export const HOST_IDS: readonly HostId[] = HOSTS.map((h) => h.id);

export function hostById(id: string): HostAdapter | null {
  return HOSTS.find((h) => h.id === id) ?? null;
}
