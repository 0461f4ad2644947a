// Entry of the action's bundle (dist/action.js, built by scripts/action/build.mjs in the
// action's own checkout). Exits explicitly once stdout and stderr are flushed: like the CLI,
// it must not wait for a process that escaped a check and still holds a pipe.
import { runAction } from './run-action.js';

const flushed = (stream: NodeJS.WriteStream) => new Promise<void>((done) => stream.write('', () => done()));

let code: number;
try {
  code = await runAction(process.env, { stdout: (t) => void process.stdout.write(t), stderr: (t) => void process.stderr.write(t) });
} catch (e) {
  process.stderr.write(`gate-check action: internal error: ${String(e instanceof Error ? e.message : e).replace(/[^\x20-\x7e]/g, '?').slice(0, 600)}\n`);
  code = 2;
}
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
process.exit(code);
