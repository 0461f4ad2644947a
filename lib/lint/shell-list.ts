// Groups CHECK tokens into a shell list: pipelines joined by ; && || &. Pure.
// Parentheses and braces are flattened (left-associative && / || give the same conditions
// in the cases that matter here); if/for/while/case mark the list as complex, and rules that
// reason about control flow leave complex lists alone rather than guess.
import { tokenize, type Token, type Word } from './shell-words.js';

export type ListOp = ';' | '&&' | '||' | '&';

export interface Redirect {
  op: string;
  target: Word | null;
}

export interface SimpleCommand {
  /** The command and its arguments, after leading NAME=value assignments. */
  words: Word[];
  assignments: Word[];
  redirects: Redirect[];
  /** Preceded by `!`: its status is inverted. */
  negated: boolean;
}

export interface ListItem {
  /** The operator before this pipeline; null for the first. */
  op: ListOp | null;
  pipeline: SimpleCommand[];
}

export interface ShellList {
  items: ListItem[];
  /** The list ends with `&`: the last pipeline runs in the background. */
  background: boolean;
  /** False on a syntax the shell would reject (open quote, `&& &&`, a dangling `|`). */
  complete: boolean;
  /** Uses if/for/while/case/functions: control flow this parser does not model. */
  complex: boolean;
}

const COMPOUND = new Set(['if', 'then', 'else', 'elif', 'fi', 'for', 'while', 'until', 'do', 'done', 'case', 'esac', 'select', 'function', 'in']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;

export function parseShellList(check: string): ShellList {
  const { tokens, complete } = tokenize(check);
  return groupTokens(tokens, complete);
}

export function groupTokens(tokens: readonly Token[], tokenizedCompletely = true): ShellList {
  const list: ShellList = { items: [], background: false, complete: tokenizedCompletely, complex: false };
  let command = emptyCommand();
  let pipeline: SimpleCommand[] = [];
  let pendingOp: ListOp | null = null;
  let pipeOpen = false;

  const isEmpty = (c: SimpleCommand) => c.words.length === 0 && c.assignments.length === 0 && c.redirects.length === 0 && !c.negated;
  const endCommand = (): boolean => {
    if (isEmpty(command)) return false;
    pipeline.push(command);
    command = emptyCommand();
    return true;
  };
  const endPipeline = (next: ListOp | null) => {
    const had = endCommand();
    if (!had && pipeOpen) list.complete = false;
    if (pipeline.length > 0) {
      list.items.push({ op: pendingOp, pipeline });
    } else if (next !== null || pendingOp === '&&' || pendingOp === '||') {
      // `; x`, `a && ; b`, `a &&` at the end: the shell rejects all of these.
      list.complete = false;
    }
    pipeline = [];
    pipeOpen = false;
    pendingOp = next;
  };

  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t]!;
    if (token.kind === 'word') {
      const v = token.value;
      const start = command.words.length === 0;
      // NAME=value with the name and '=' unquoted (`A="x y"` is one, `"A=x"` and `\A=x` are not).
      const assignment = start ? ASSIGNMENT.exec(v) : null;
      if (assignment !== null && assignment[0].length <= token.plainPrefix) command.assignments.push(token);
      else if (start && !token.quoted && v === '!') command.negated = !command.negated;
      else if (start && !token.quoted && (v === '{' || v === '}')) continue;
      else {
        if (start && !token.quoted && COMPOUND.has(v)) list.complex = true;
        command.words.push(token);
      }
    } else if (token.kind === 'redirect') {
      const next = tokens[t + 1];
      if (next?.kind === 'word') {
        command.redirects.push({ op: token.op, target: next });
        t++;
      } else {
        command.redirects.push({ op: token.op, target: null });
        list.complete = false;
      }
    } else if (token.op === '|' || token.op === '|&') {
      if (!endCommand()) list.complete = false;
      pipeOpen = true;
    } else if (token.op === '(' || token.op === ')') {
      // `name() { … }` defines a function; `( … )` is a subshell and is flattened.
      if (token.op === '(' && command.words.length > 0) list.complex = true;
      continue;
    } else {
      endPipeline(token.op);
    }
  }
  // A trailing `&` (nothing after it) puts the last pipeline in the background.
  const trailing = isEmpty(command) && pipeline.length === 0 ? pendingOp : null;
  endPipeline(null);
  if (trailing === '&') list.background = true;
  return list;
}

function emptyCommand(): SimpleCommand {
  return { words: [], assignments: [], redirects: [], negated: false };
}
