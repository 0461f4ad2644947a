// The hot-path parser: reads the common, well-formed command lines of OPTIONS (long options,
// `--opt=value` or `--opt value`, positional files, `--`) without loading commander. Anything
// else (help, version, short options, unknown options, a missing or dash-led value) returns
// null, and commander, built from the same table, decides and explains. Pure.
import { OPTION_BY_FLAG, type RawArgs } from './option-table.js';

export function fastParse(argv: readonly string[]): RawArgs | null {
  const occurrences = new Map<string, (string | true)[]>();
  const args: string[] = [];
  const add = (flag: string, value: string | true) => {
    const list = occurrences.get(flag);
    if (list) list.push(value);
    else occurrences.set(flag, [value]);
  };
  let options = true;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!options || a === '-' || !a.startsWith('-')) {
      args.push(a);
      continue;
    }
    if (a === '--') {
      options = false;
      continue;
    }
    if (!a.startsWith('--')) return null;
    const eq = a.indexOf('=');
    const flag = eq === -1 ? a : a.slice(0, eq);
    const inline = eq === -1 ? undefined : a.slice(eq + 1);
    const spec = OPTION_BY_FLAG.get(flag);
    if (!spec || inline === '') return null;
    if (spec.kind === 'flag') {
      if (inline !== undefined) return null;
      add(flag, true);
      continue;
    }
    if (inline !== undefined) {
      add(flag, inline);
      continue;
    }
    const next = argv[i + 1];
    if (next === '' || next === '-') return null;
    const usable = next !== undefined && !next.startsWith('-');
    if (spec.kind === 'value') {
      if (!usable) return null;
      add(flag, next);
      i++;
    } else if (usable) {
      add(flag, next);
      i++;
    } else {
      add(flag, true);
    }
  }
  return { occurrences, args };
}
