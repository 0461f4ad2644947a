#!/usr/bin/env node
'use strict';
// Thin entry, CommonJS (bin/package.json): the CLI is built into dist/ by `npm run build`
// (run by `npm ci` through prepare). A command line goes to one of four builds of the same
// code (lib/cli/route.ts): --status to dist/status.cjs, the Stop hook to dist/hook.cjs, runs
// to dist/run.cjs, each loaded with its code cache (bin/fast-loader.cjs), and everything else
// (help, subcommands) to dist/cli.js. Every failure to load or start
// (a missing build, EMFILE under a low `ulimit -n`) and every unexpected exception is exit 2
// with one message, never 1 or a bare stack trace. The process exits only once its output is
// flushed (lib/cli/main.ts); the checks' process groups are killed on every exit
// (lib/run/supervisor.ts).
const { writeSync } = require('node:fs');

const say = (what, error) => {
  const message = error instanceof Error ? error.message : String(error);
  try {
    writeSync(2, `gate-check: ${what}: ${message.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').slice(0, 600)}\n`);
  } catch {
    // stderr is gone too: the exit code still says it.
  }
};
let built;
const fail = async (error) => {
  say('internal error', error);
  await built?.releaseDeadTerminal().catch(() => {});
  process.exit(2);
};
process.on('uncaughtException', fail);

// A signal before the CLI's own handlers are in place (loading a build takes tens of ms):
// nothing has started yet, and an interrupt is exit 130 like any other (round-38d F4). The
// list is lib/run/interrupts.ts's INTERRUPT_SIGNALS (a test compares them); V8's profiler owns
// SIGPROF under --cpu-prof.
const EARLY_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGUSR2', 'SIGALRM', 'SIGVTALRM', 'SIGPROF', 'SIGXCPU', 'SIGPOLL', 'SIGPWR', 'SIGSYS', 'SIGSTKFLT', 'SIGTRAP', 'SIGABRT'];
const early = () => process.exit(130);
const profiling = process.execArgv.some((a) => a === '--cpu-prof' || a.startsWith('--cpu-prof='));
for (const s of EARLY_SIGNALS) {
  if (s === 'SIGPROF' && profiling) continue;
  try {
    process.on(s, early);
  } catch {
    // A signal this platform does not have.
  }
}

async function start(argv) {
  try {
    const route = require('../dist/route.cjs').routeOf(argv);
    built = route === 'full' ? await import('../dist/cli.js') : require('./fast-loader.cjs').loadFast(route).exports;
  } catch (error) {
    say('cannot start', error);
    return 2;
  }
  // In the same tick as cli() puts its own handlers in place (its first statement).
  for (const s of EARLY_SIGNALS) process.off(s, early);
  return built.cli(argv);
}

start(process.argv.slice(2)).then((code) => process.exit(code), fail);
