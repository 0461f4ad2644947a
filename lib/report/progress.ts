// The live progress line of a long run, on stderr, only on a terminal: done/total, the gates
// running now, elapsed time. Never in --json output or CI logs. Cleared before every line of
// the report so the two never interleave.
import { sanitizeLine } from '../text/sanitize.js';

const REFRESH_MS = 250;

export class ProgressLine {
  private readonly running = new Set<string>();
  private done = 0;
  private timer: NodeJS.Timeout | null = null;
  private shown = false;
  private readonly started = Date.now();

  constructor(
    private readonly total: number,
    private readonly write: (text: string) => void,
    private readonly width = 100,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.render(), REFRESH_MS);
    this.timer.unref();
  }

  begin(id: string): void {
    this.running.add(id);
  }

  end(id: string): void {
    this.running.delete(id);
    this.done++;
  }

  /** Erases the line (before the report prints). */
  clear(): void {
    if (this.shown) this.write('\r\u001b[K');
    this.shown = false;
  }

  render(): void {
    const secs = ((Date.now() - this.started) / 1000).toFixed(1);
    const ids = [...this.running].map((id) => sanitizeLine(id, 40)).join(', ');
    const line = sanitizeLine(`[${this.done}/${this.total}] ${secs}s${ids ? `  running ${ids}` : ''}`, this.width);
    this.write(`\r\u001b[K${line}`);
    this.shown = true;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.clear();
  }
}

/** A terminal, not --json, not CI, and more than a few checks. */
export function wantsProgress(stderrIsTTY: boolean, json: boolean, env: NodeJS.ProcessEnv, checks: number): boolean {
  return stderrIsTTY && !json && !env.CI && env.GITHUB_ACTIONS !== 'true' && checks > 3;
}
