// Rules about what a CHECK can prove: cannot-fail, self-satisfying, inverted-exit,
// masked-exit. Pure.
import type { Gate } from '../ledger/types.js';
import { shellQuote } from '../text/shell-quote.js';
import { commandStatus, isAlwaysZero, printedTexts, programName, unwrapped, type Status } from './commands.js';
import { listed, quoted } from './excerpt.js';
import { analyzeFlow, type Reach, type Step } from './flow.js';
import { quietKind, quietOnSuccess } from './quiet-tools.js';
import { posix } from 'node:path';
import { runnerOf, type RunnerCall } from './runners.js';
import { parseShellList, type ShellList, type SimpleCommand } from './shell-list.js';
import type { ExpectMatcher, GateContext, GateFinding } from './types.js';

type Runnable = Gate & { check: string; expectRaw: string; expect: NonNullable<Gate['expect']> };

export function checkRules(gate: Runnable, list: ShellList, match: ExpectMatcher): GateFinding[] {
  // A CHECK the shell would reject, or one with if/while/case, is not second-guessed.
  if (!list.complete || list.complex) return [];
  const line = gate.attributeLines.CHECK ?? gate.line;
  const commands = list.items.flatMap((i) => i.pipeline);
  const real = realCommands(list);
  const subject = real.length === 0 ? 'the code' : listed(unique(real.map(shownName)), 2, 40);
  const found: GateFinding[] = [];

  if (commands.every(isAlwaysZero)) found.push(cannotFail(commands, line));
  const flow = analyzeFlow(list);
  const printed = selfPrinted(flow.steps, gate, match);
  if (printed) found.push(selfSatisfying(printed, gate.expectRaw, subject, line));
  if (found.length > 0) return found;

  const inverted = invertedExit(list, line);
  if (inverted) return [inverted];
  const reachedReal = flow.steps.some((s) => s.reach !== 'never' && s.item.pipeline.some((c, i) => commandStatus(c, 'zero', i > 0) !== 'zero'));
  if (flow.exit === 'zero' && reachedReal) return [maskedExit(flow.steps, list.background, subject, line, gate.check, list.items.length === 1)];
  const dropped = droppedRunner(flow.steps);
  return dropped === null ? [] : [{ line, rule: 'masked-exit', ...dropped }];
}

/**
 * A test runner whose status the next command drops (`node --test; date`: the CHECK exits
 * with `date`'s status, round-39v V8), where the end of the list is no command that always
 * exits 0 (masked-exit above).
 */
function droppedRunner(steps: readonly Step[]): { message: string; suggestion: string } | null {
  for (let i = 0; i + 1 < steps.length; i++) {
    const step = steps[i]!;
    const next = steps[i + 1]!;
    if (step.reach === 'never' || (next.op !== ';' && next.op !== '&')) continue;
    const runner = step.item.pipeline.find((c) => runnerOf(c) !== null);
    if (runner === undefined) continue;
    return {
      message: `CHECK exits 0 even when ${shownName(runner)} fails ('${next.op} ${nameOf(next.item.pipeline[0]!)}' after it drops its exit status; the CHECK exits with the last command's): only the EXPECT can still catch a failure`,
      suggestion: "join the commands with '&&', or run the test runner last",
    };
  }
  return null;
}

/**
 * masked-exit inside a package script: `npm test` exits with its script's status, so
 * `"test": "node --test || true"` (or `| tee log`) passes with failing tests although the
 * CHECK itself looks sound (round-31b F1). Read from the package.json the script runs from.
 */
export function packageScriptRules(calls: readonly RunnerCall[], workdir: string | null, packageScript: GateContext['packageScript'], line: number, depth = 0): GateFinding[] {
  if (workdir === null || packageScript === undefined) return [];
  const found: GateFinding[] = [];
  for (const call of calls) {
    if (call.id !== 'package-script' || call.target === null) continue;
    // A workspace's own scripts (-w, --workspace) are not read: never report the root's for it.
    if (call.workspaces === true) continue;
    const dir = call.subdir === null ? workdir : posix.normalize(posix.join(workdir, call.subdir));
    if (dir.startsWith('../') || dir === '..') continue;
    const text = packageScript(dir, call.target);
    if (text === null) continue;
    const list = parseShellList(text);
    if (!list.complete || list.complex) continue;
    const flow = analyzeFlow(list);
    const reachedReal = flow.steps.some((s) => s.reach !== 'never' && s.item.pipeline.some((c, i) => commandStatus(c, 'zero', i > 0) !== 'zero'));
    const who = `${call.shown} (package.json's ${quoted(call.target)} script, ${quoted(text, 60)})`;
    if (flow.exit === 'zero' && reachedReal) {
      const masked = maskedExit(flow.steps, list.background, 'its script', line, text, list.items.length === 1, who);
      found.push({ ...masked, suggestion: `in that script: ${(masked.suggestion ?? '').replace('CHECK: bash -o pipefail', 'write it as bash -o pipefail')}` });
      continue;
    }
    // A script that runs another (`"test": "npm run test:unit"`: round-32 F5), a few levels down.
    if (depth < 3) {
      const inner = list.items.flatMap((i) => i.pipeline.map(runnerOf)).filter((c): c is RunnerCall => c !== null);
      for (const f of packageScriptRules(inner, dir, packageScript, line, depth + 1)) found.push({ ...f, message: `${call.shown} runs ${f.message}` });
    }
  }
  return found;
}

const proving = new WeakMap<SimpleCommand, boolean>();

/** A test runner or a checker (tsc, eslint): a command whose success is the outcome, never its failure. */
function provesOutcome(cmd: SimpleCommand): boolean {
  let result = proving.get(cmd);
  if (result === undefined) proving.set(cmd, (result = runnerOf(cmd) !== null || quietKind(cmd) === 'checker'));
  return result;
}

/**
 * inverted-exit: with every runner and checker assumed to pass the CHECK fails, and with
 * them failing it passes (`! npm test`, `npm test && exit 1 || exit 0`). Predicates
 * (`! grep -q FAIL log`) are left alone: negating them is how a shell says "no match".
 */
function invertedExit(list: ShellList, line: number): GateFinding | null {
  const subjects = list.items.flatMap((i) => i.pipeline.filter(provesOutcome));
  if (subjects.length === 0) return null;
  const assuming = (status: Status) => analyzeFlow(list, (c) => (provesOutcome(c) ? status : null)).exit;
  if (assuming('zero') !== 'nonzero' || assuming('nonzero') !== 'zero') return null;
  const negated = subjects.find((c) => c.negated);
  const name = listed(unique(subjects.map(shownName)), 2, 40);
  const why = negated ? `'!' in front of ${shownName(negated)} inverts its status` : 'the commands after it turn its status around';
  return {
    line,
    rule: 'inverted-exit',
    message: `CHECK exits 0 exactly when ${name} fails (${why}): the gate passes on a failure and fails on success`,
    suggestion: negated
      ? "drop the '!': a gate passes when its command succeeds; to prove that something is rejected, run a script that exits 0 only when the expected rejection happens, and EXPECT what it prints then"
      : `let the CHECK end with ${name}'s own status: drop what follows it`,
  };
}

/** Commands whose status can reflect the code under test (not echo, not a filter after a pipe). */
function realCommands(list: ShellList): SimpleCommand[] {
  return list.items.flatMap((item) => item.pipeline.filter((c, i) => commandStatus(c, 'zero', i > 0) !== 'zero'));
}

function nameOf(cmd: SimpleCommand): string {
  return programName(unwrapped(cmd)[0]) ?? '(command)';
}

/** `npm test`, `node --test`: the program and its first argument, which usually says what runs. */
function shownName(cmd: SimpleCommand): string {
  const words = unwrapped(cmd);
  const name = programName(words[0]) ?? '(command)';
  const arg = words[1];
  return arg && !arg.dynamic && arg.value.length <= 24 ? `${name} ${arg.value}` : name;
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}

function cannotFail(commands: readonly SimpleCommand[], line: number): GateFinding {
  const names = unique(commands.map((c) => (unwrapped(c).length === 0 ? 'an assignment' : nameOf(c))));
  const substitution = commands.some((c) => c.words.some((w) => w.substitution));
  const message =
    commands.length === 0
      ? 'CHECK cannot fail: it runs nothing (the shell reads it as a comment)'
      : substitution
        ? `CHECK cannot fail: it only runs ${listed(names)}, which exit 0 whatever the code does (the status of a $(…) inside is discarded)`
        : `CHECK cannot fail: it only runs ${listed(names)}, which exit 0 whatever the code does`;
  return {
    line,
    rule: 'cannot-fail',
    message,
    suggestion: 'run the command that proves the outcome (a test, a verification script, a build) so that failure exits non-zero, and EXPECT text only success prints',
  };
}

interface Printed {
  reach: Reach;
  program: string;
}

// When several echos print the EXPECT, report the one that says most about the gate.
const SEVERITY: Record<Reach, number> = { 'on-failure': 3, always: 2, 'on-success': 1, never: 0 };

/**
 * The echo/printf whose literal output satisfies the EXPECT, if any, and when it runs.
 * `tsc --noEmit && echo typecheck-ok` is not counted: the echo runs only after success,
 * and tools that print nothing on success (quiet-tools.ts, and negated searches such as
 * `! grep -rn TODO src`) have no summary line to expect instead, so the marker is exactly
 * as strong as their exit status, which is all they say.
 */
function selfPrinted(steps: readonly Step[], gate: Runnable, match: ExpectMatcher): Printed | null {
  let best: Printed | null = null;
  // Whether every real command reached so far prints nothing on success (and there is one).
  let quietSoFar: boolean | null = null;
  for (const step of steps) {
    if (step.reach === 'never') continue;
    // Only the last command of a pipeline writes to the output; the others feed the next.
    const printer = printedTexts(step.item.pipeline[step.item.pipeline.length - 1]!);
    const matches = printer !== null && printer.texts.some((t) => match(gate.expect, t));
    if (printer && matches && !(step.reach === 'on-success' && quietSoFar === true)) {
      if (!best || SEVERITY[step.reach] > SEVERITY[best.reach]) best = { reach: step.reach, program: printer.program };
    }
    step.item.pipeline.forEach((c, i) => {
      if (commandStatus(c, 'zero', i > 0) === 'zero') return;
      quietSoFar = (quietSoFar ?? true) && quietOnSuccess(c);
    });
  }
  return best;
}

function selfSatisfying(printed: Printed, expectRaw: string, subject: string, line: number): GateFinding {
  const q = quoted(expectRaw);
  const { program } = printed;
  const message =
    printed.reach === 'on-failure'
      ? `EXPECT ${q} is printed by the CHECK itself: ${program} after '||' prints it exactly when ${subject} fails`
      : printed.reach === 'always'
        ? `EXPECT ${q} is printed by the CHECK itself: ${program} prints it whatever ${subject} does`
        : `EXPECT ${q} is printed by ${program} after '&&': it proves only that ${subject} exited 0, which every gate already requires`;
  return {
    line,
    rule: 'self-satisfying',
    message,
    suggestion:
      printed.reach === 'on-success'
        ? // The command may print nothing of its own (a quiet script): then it is what must change.
          `EXPECT a line that ${subject} itself prints only on success (its summary, ideally with a count), and drop the ${program}; if it prints nothing, make it print one (a tool known to be quiet on success, such as eslint or tsc --noEmit, is accepted with && ${program})`
        : `remove the ${program} and EXPECT text that only the real command prints on success (its summary line, ideally with a count)`,
  };
}

function maskedExit(steps: readonly Step[], background: boolean, subject: string, line: number, check: string, onePipeline: boolean, who = 'CHECK'): GateFinding {
  const reached = steps.filter((s) => s.reach !== 'never');
  const last = reached[reached.length - 1]!;
  const tail = last.item.pipeline[last.item.pipeline.length - 1]!;
  let why: string;
  let fix: string;
  if (background && last.index === steps.length - 1) {
    why = "'&' runs it in the background";
    fix = "drop the '&' so that the CHECK waits for the command and returns its status";
  } else if (last.item.pipeline.length > 1) {
    why = `'| ${nameOf(tail)}': a pipeline exits with its last command's status`;
    // `set -o pipefail` is not POSIX sh before POSIX.1-2024: dash (Debian's and Ubuntu's
    // /bin/sh) rejects it and the CHECK fails every run. bash -o pipefail -c works under any /bin/sh.
    const inBash = onePipeline ? `bash -o pipefail -c ${shellQuote(check)}` : "bash -o pipefail -c '…'";
    fix = `drop the pipe (gate-check matches EXPECT against the whole output); if the filter is needed, run the pipeline in bash with pipefail: CHECK: ${inBash}`;
  } else if (last.item.op === '||') {
    why = `'|| ${nameOf(tail)}' turns a failure into success`;
    fix = "drop the '|| …' so that a failure exits non-zero";
  } else {
    why = `'${last.item.op ?? ';'} ${nameOf(tail)}' at the end decides the exit status`;
    fix = "drop the trailing command, or join it with '&&'";
  }
  return {
    line,
    rule: 'masked-exit',
    message: `${who} exits 0 even when ${subject} fails (${why}): only the EXPECT can still catch a failure`,
    suggestion: fix,
  };
}
