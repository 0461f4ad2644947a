// The Stop hook alone, the call an agent host makes on every stop (see cli/lazy.ts).
export { claudeStopCommand } from '../hook/claude-stop.js';
export { hookStopCommand } from '../hook/stop-command.js';
