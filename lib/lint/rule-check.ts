// Rules about what a CHECK can prove: cannot-fail, self-satisfying, masked-exit. Pure.
import type { Gate } from '../ledger/types.js';
import { commandStatus, isAlwaysZero, printedTexts, programName, unwrapped } from './commands.js';
import { listed, quoted } from './excerpt.js';
import { analyzeFlow, type Reach, type Step } from './flow.js';
import type { ShellList, SimpleCommand } from './shell-list.js';
import type { ExpectMatcher, GateFinding } from './types.js';

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

  const reachedReal = flow.steps.some((s) => s.reach !== 'never' && s.item.pipeline.some((c, i) => commandStatus(c, 'zero', i > 0) !== 'zero'));
  if (flow.exit === 'zero' && reachedReal) return [maskedExit(flow.steps, list.background, subject, line)];
  return [];
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

/** The echo/printf whose literal output satisfies the EXPECT, if any, and when it runs. */
function selfPrinted(steps: readonly Step[], gate: Runnable, match: ExpectMatcher): Printed | null {
  let best: Printed | null = null;
  for (const step of steps) {
    if (step.reach === 'never') continue;
    // Only the last command of a pipeline writes to the output; the others feed the next.
    const printer = printedTexts(step.item.pipeline[step.item.pipeline.length - 1]!);
    if (!printer || !printer.texts.some((t) => match(gate.expect, t))) continue;
    if (!best || SEVERITY[step.reach] > SEVERITY[best.reach]) best = { reach: step.reach, program: printer.program };
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
    suggestion: `remove the ${program} and EXPECT text that only the real command prints on success (its summary line, ideally with a count)`,
  };
}

function maskedExit(steps: readonly Step[], background: boolean, subject: string, line: number): GateFinding {
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
    fix = 'drop the pipe, or start the CHECK with set -o pipefail where the shell supports it';
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
    message: `CHECK exits 0 even when ${subject} fails (${why}): only the EXPECT can still catch a failure`,
    suggestion: fix,
  };
}
