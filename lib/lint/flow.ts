// Control flow of a shell list, abstracted: for each pipeline, under which condition it runs
// (always, only after success, only after failure, never), and the class of the list's final
// exit status. Pure. Enough to tell `npm test; echo OK` from `npm test && echo OK`.
import { commandStatus, isExit, setsErrexit, setsPipefail, type Assumption, type Status } from './commands.js';
import type { ListItem, ShellList, SimpleCommand } from './shell-list.js';

export type Reach = 'always' | 'on-success' | 'on-failure' | 'never';

export interface Step {
  item: ListItem;
  index: number;
  reach: Reach;
  /** The operator it follows, as it acts (`;` under `set -e` acts as `&&`); null for the first. */
  op: string | null;
}

export interface Flow {
  steps: Step[];
  /** Exit status class of the whole CHECK. */
  exit: Status;
}

export function analyzeFlow(list: ShellList, assume?: Assumption): Flow {
  const steps: Step[] = [];
  let status: Status = 'zero';
  let errexit = false;
  let pipefail = false;
  let exited = false;
  list.items.forEach((item, index) => {
    // Under `set -e` a failing command ends the list, so `;` behaves like `&&`.
    const op = item.op === ';' && errexit ? '&&' : item.op;
    let reach: Reach;
    if (exited) reach = 'never';
    else if (op === null || op === ';' || op === '&') reach = 'always';
    else if (op === '&&') reach = status === 'zero' ? 'always' : status === 'nonzero' ? 'never' : 'on-success';
    else reach = status === 'nonzero' ? 'always' : status === 'zero' ? 'never' : 'on-failure';
    steps.push({ item, index, reach, op });
    if (reach === 'never') return;

    const backgrounded = list.items[index + 1]?.op === '&' || (index === list.items.length - 1 && list.background);
    const own: Status = backgrounded ? 'zero' : pipelineStatus(item.pipeline, status, pipefail, assume);
    if (reach === 'always') status = own;
    else if (reach === 'on-success') status = join(own, 'nonzero');
    else status = join(own, 'zero');

    for (const cmd of item.pipeline) {
      if (setsErrexit(cmd)) errexit = true;
      if (setsPipefail(cmd)) pipefail = true;
    }
    if (reach === 'always' && item.pipeline.length === 1 && isExit(item.pipeline[0]!)) exited = true;
  });
  return { steps, exit: status };
}

/** A pipeline's status is its last command's, or (with pipefail) any failure in it. */
function pipelineStatus(pipeline: readonly SimpleCommand[], previous: Status, pipefail: boolean, assume?: Assumption): Status {
  const each = pipeline.map((cmd, i) => commandStatus(cmd, previous, i > 0, assume));
  const last = each[each.length - 1] ?? 'zero';
  if (!pipefail) return last;
  if (each.includes('nonzero')) return 'nonzero';
  return each.includes('maybe') ? 'maybe' : 'zero';
}

function join(a: Status, b: Status): Status {
  return a === b ? a : 'maybe';
}
