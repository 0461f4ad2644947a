// A model of a tree of ledgers for property tests of gate-check diff: random ledgers, rendered
// in random (valid) formatting, and the edits a pull request can make to them: cosmetic ones,
// which must not count as weakening, and weakening ones, which must.
import fc from 'fast-check';

export interface Definition {
  check: string;
  expect: string;
  cwd: string | null;
  depends: string[] | null;
  inputs: string[] | null;
  timeout: number | null;
}

export interface GateModel {
  id: string;
  title: string;
  checked: boolean;
  evidence: string | null;
  def: Definition | null;
  abandon: string | null;
  /** Which base gate this is ("path#id"), kept through every edit; absent on added gates. */
  tag?: string;
}

export interface Style {
  indent: string;
  eol: '\n' | '\r\n';
  blankBetween: boolean;
  heading: boolean;
  note: boolean;
  trailing: string;
  listSep: string;
  /** Attribute order: a permutation of 0..6 (CHECK EXPECT CWD DEPENDS INPUTS TIMEOUT EVIDENCE). */
  order: number[];
}

export interface FileModel {
  path: string;
  owns: string[];
  gates: GateModel[];
  style: Style;
}

export type TreeModel = FileModel[];

/** Root ledgers and two scopes: moves inside a group are cosmetic, across groups they are not. */
export const PATHS = ['GATES.md', 'gates/a.md', 'gates/b.md', '.gate-check/s1/x.md', '.gate-check/s1/y.md', '.gate-check/s2/z.md'];

export function groupOf(path: string): string {
  return path.startsWith('.gate-check/') ? path.split('/')[1]! : '';
}

const idArb = fc.stringMatching(/^[A-Z][A-Z0-9]{0,1}$/);
const titleArb = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ,.-]{0,20}$/).map((t) => t.trim()).filter((t) => t !== '');
const wordArb = fc.stringMatching(/^[a-z][a-z0-9]{0,6}$/);
const globArb = fc.constantFrom('a.js', 'b.js', 'src/*.ts', 'docs/x.md', 'lib/**/*.js');
const globsArb = fc.option(fc.uniqueArray(globArb, { minLength: 1, maxLength: 3 }), { nil: null });

export const definitionArb: fc.Arbitrary<Definition> = fc.record({
  check: fc.tuple(wordArb, fc.option(wordArb, { nil: null })).map(([a, b]) => (b === null ? `run ${a}` : `run ${a} --${b}`)),
  expect: wordArb.map((w) => `${w} passed`),
  cwd: fc.option(fc.constantFrom('sub', 'packages/x', '.'), { nil: null }),
  depends: globsArb,
  inputs: globsArb,
  timeout: fc.option(fc.integer({ min: 1, max: 600 }), { nil: null }),
});

const evidenceArb = fc.option(fc.constantFrom('pending', 'exit=0; def=0123456789ab; match=000000000000', 'checked by hand on 2024-05-01'), { nil: null });

export const gateArb = (id: string): fc.Arbitrary<GateModel> =>
  fc.record({
    id: fc.constant(id),
    title: titleArb,
    checked: fc.boolean(),
    evidence: evidenceArb,
    def: fc.option(definitionArb, { nil: null, freq: 3 }),
    abandon: fc.option(wordArb.map((w) => `reason ${w}`), { nil: null, freq: 5 }),
  });

export const styleArb: fc.Arbitrary<Style> = fc.record({
  indent: fc.constantFrom('  ', '    ', '\t'),
  eol: fc.constantFrom('\n' as const, '\r\n' as const),
  blankBetween: fc.boolean(),
  heading: fc.boolean(),
  note: fc.boolean(),
  trailing: fc.constantFrom('', ' '),
  listSep: fc.constantFrom(', ', ',', ' , '),
  order: fc.shuffledSubarray([0, 1, 2, 3, 4, 5, 6], { minLength: 7, maxLength: 7 }),
});

const fileArb = (path: string): fc.Arbitrary<FileModel> =>
  fc.uniqueArray(idArb, { minLength: 1, maxLength: 5 }).chain((ids) =>
    fc.record({
      path: fc.constant(path),
      owns: fc.constantFrom([], ['src/**'], ['src/**', 'test/**']),
      gates: fc.tuple(...ids.map(gateArb)),
      style: styleArb,
    }),
  );

export const treeArb: fc.Arbitrary<TreeModel> = fc
  .shuffledSubarray(PATHS, { minLength: 1, maxLength: 4 })
  .chain((paths) => fc.tuple(...paths.map(fileArb)))
  .map((files) => files.map((f) => ({ ...f, gates: f.gates.map((g) => ({ ...g, tag: `${f.path}#${g.id}` })) })));

export function renderFile(f: FileModel): string {
  const s = f.style;
  const out: string[] = [];
  if (s.heading) out.push('# Gates', '');
  if (f.owns.length > 0) out.push(`OWNS: ${f.owns.join(s.listSep)}`, '');
  for (const g of f.gates) {
    out.push(`- [${g.checked ? 'x' : ' '}] ${g.id}: ${g.title}${s.trailing}`);
    const attrs: (string | null)[] = [
      g.def ? `CHECK: ${g.def.check}` : null,
      g.def ? `EXPECT: ${g.def.expect}` : null,
      g.def?.cwd != null ? `CWD: ${g.def.cwd}` : null,
      g.def?.depends != null ? `DEPENDS: ${g.def.depends.join(s.listSep)}` : null,
      g.def?.inputs != null ? `INPUTS: ${g.def.inputs.join(s.listSep)}` : null,
      g.def?.timeout != null ? `TIMEOUT: ${g.def.timeout}` : null,
      g.evidence !== null ? `EVIDENCE: ${g.evidence}` : null,
    ];
    for (const i of s.order) if (attrs[i] !== null) out.push(`${s.indent}${attrs[i]}${s.trailing}`);
    if (s.note) out.push(`${s.indent}(a note) see the runbook`);
    if (s.blankBetween) out.push('');
  }
  const handoffs = f.gates.filter((g) => g.abandon !== null);
  if (handoffs.length > 0) out.push('');
  for (const g of handoffs) out.push(`ABANDON: ${g.id} ${g.abandon}`);
  return out.join(s.eol) + s.eol;
}

export function renderTree(tree: TreeModel): Record<string, string> {
  const files: Record<string, string> = {};
  for (const f of tree) files[f.path] = renderFile(f);
  return files;
}

function clone(tree: TreeModel): TreeModel {
  return structuredClone(tree);
}

// ---- Edits. Each is data (fast-check shrinks it) and is read modulo the tree's sizes. ----

export type CosmeticEdit =
  | { kind: 'reorder'; file: number; seed: number }
  | { kind: 'restyle'; file: number; style: Style }
  | { kind: 'retitle-runnable'; pick: number; title: string }
  | { kind: 'respace-title'; pick: number }
  | { kind: 'tick'; pick: number; evidence: string | null }
  | { kind: 'reorder-globs'; pick: number }
  | { kind: 'reason'; pick: number; reason: string }
  | { kind: 'unabandon'; pick: number }
  | { kind: 'move-in-group'; pick: number; to: number }
  | { kind: 'rename-file'; file: number; name: number }
  | { kind: 'add-gate'; file: number; gate: GateModel }
  | { kind: 'add-file'; path: number; gate: GateModel };

export const cosmeticEditArb: fc.Arbitrary<CosmeticEdit> = fc.oneof(
  fc.record({ kind: fc.constant('reorder' as const), file: fc.nat(), seed: fc.nat() }),
  fc.record({ kind: fc.constant('restyle' as const), file: fc.nat(), style: styleArb }),
  fc.record({ kind: fc.constant('retitle-runnable' as const), pick: fc.nat(), title: titleArb }),
  fc.record({ kind: fc.constant('respace-title' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('tick' as const), pick: fc.nat(), evidence: evidenceArb }),
  fc.record({ kind: fc.constant('reorder-globs' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('reason' as const), pick: fc.nat(), reason: wordArb.map((w) => `because ${w}`) }),
  fc.record({ kind: fc.constant('unabandon' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('move-in-group' as const), pick: fc.nat(), to: fc.nat() }),
  fc.record({ kind: fc.constant('rename-file' as const), file: fc.nat(), name: fc.nat() }),
  fc.record({ kind: fc.constant('add-gate' as const), file: fc.nat(), gate: gateArb('NEW').map((g) => ({ ...g, abandon: null })) }),
  fc.record({ kind: fc.constant('add-file' as const), path: fc.nat(), gate: gateArb('NEW').map((g) => ({ ...g, abandon: null })) }),
);

export type WeakeningEdit =
  | { kind: 'remove'; pick: number }
  | { kind: 'to-manual'; pick: number }
  | { kind: 'to-runnable'; pick: number; def: Definition }
  | { kind: 'field'; pick: number; field: 'CHECK' | 'EXPECT' | 'CWD' | 'DEPENDS' | 'INPUTS' | 'TIMEOUT' }
  | { kind: 'abandon'; pick: number }
  | { kind: 'delete-file'; file: number }
  | { kind: 'move-out-of-group'; pick: number; to: number };

export const weakeningEditArb: fc.Arbitrary<WeakeningEdit> = fc.oneof(
  fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('to-manual' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('to-runnable' as const), pick: fc.nat(), def: definitionArb }),
  fc.record({ kind: fc.constant('field' as const), pick: fc.nat(), field: fc.constantFrom('CHECK' as const, 'EXPECT' as const, 'CWD' as const, 'DEPENDS' as const, 'INPUTS' as const, 'TIMEOUT' as const) }),
  fc.record({ kind: fc.constant('abandon' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('delete-file' as const), file: fc.nat() }),
  fc.record({ kind: fc.constant('move-out-of-group' as const), pick: fc.nat(), to: fc.nat() }),
);

export function fromBase(g: GateModel): boolean {
  return g.tag !== undefined;
}

function allGates(tree: TreeModel, where: (g: GateModel) => boolean = () => true): { file: FileModel; index: number }[] {
  const out: { file: FileModel; index: number }[] = [];
  for (const file of tree) file.gates.forEach((g, index) => where(g) && out.push({ file, index }));
  return out;
}

function dropEmpty(tree: TreeModel): TreeModel {
  return tree.filter((f) => f.gates.length > 0);
}

let fresh = 0;
/** Ids never generated for a base ledger (base ids are at most two characters). */
function freshId(): string {
  fresh++;
  return `NEW${fresh}`;
}

function shuffle<T>(list: T[], seed: number): T[] {
  const out = [...list];
  let x = seed + 1;
  for (let i = out.length - 1; i > 0; i--) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const j = x % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const FRESH_NAMES = ['r1', 'r2', 'r3'];

function renamedPath(path: string, name: string): string {
  const group = groupOf(path);
  return group === '' ? `gates/${name}.md` : `.gate-check/${group}/${name}.md`;
}

export function applyCosmetic(input: TreeModel, edit: CosmeticEdit): TreeModel {
  const tree = clone(input);
  const file = (n: number) => tree[n % tree.length]!;
  switch (edit.kind) {
    case 'reorder': {
      const f = file(edit.file);
      f.gates = shuffle(f.gates, edit.seed);
      break;
    }
    case 'restyle':
      file(edit.file).style = edit.style;
      break;
    case 'retitle-runnable': {
      const list = allGates(tree, (g) => g.def !== null);
      if (list.length === 0) break;
      const p = list[edit.pick % list.length]!;
      p.file.gates[p.index]!.title = edit.title;
      break;
    }
    case 'respace-title': {
      const list = allGates(tree, (g) => g.title.includes(' '));
      if (list.length === 0) break;
      const p = list[edit.pick % list.length]!;
      p.file.gates[p.index]!.title = p.file.gates[p.index]!.title.replace(' ', '   ');
      break;
    }
    case 'tick': {
      const list = allGates(tree);
      const p = list[edit.pick % list.length]!;
      const g = p.file.gates[p.index]!;
      g.checked = !g.checked;
      g.evidence = edit.evidence;
      break;
    }
    case 'reorder-globs': {
      const list = allGates(tree, (g) => (g.def?.depends?.length ?? 0) > 1 || (g.def?.inputs?.length ?? 0) > 1);
      if (list.length === 0) break;
      const d = list[edit.pick % list.length]!.file.gates[list[edit.pick % list.length]!.index]!.def!;
      if (d.depends) d.depends = [...d.depends].reverse();
      if (d.inputs) d.inputs = [...d.inputs].reverse();
      break;
    }
    case 'reason': {
      const list = allGates(tree, (g) => g.abandon !== null);
      if (list.length === 0) break;
      const p = list[edit.pick % list.length]!;
      p.file.gates[p.index]!.abandon = edit.reason;
      break;
    }
    case 'unabandon': {
      const list = allGates(tree, (g) => g.abandon !== null);
      if (list.length === 0) break;
      const p = list[edit.pick % list.length]!;
      p.file.gates[p.index]!.abandon = null;
      break;
    }
    case 'move-in-group': {
      const list = allGates(tree);
      const p = list[edit.pick % list.length]!;
      const g = p.file.gates[p.index]!;
      const targets = tree.filter((f) => f !== p.file && groupOf(f.path) === groupOf(p.file.path) && !f.gates.some((x) => x.id === g.id));
      if (targets.length === 0) break;
      p.file.gates.splice(p.index, 1);
      targets[edit.to % targets.length]!.gates.push(g);
      return dropEmpty(tree);
    }
    case 'rename-file': {
      const f = file(edit.file);
      const taken = new Set(tree.map((x) => x.path));
      const free = FRESH_NAMES.map((n) => renamedPath(f.path, n)).filter((p) => !taken.has(p));
      if (free.length > 0) f.path = free[edit.name % free.length]!;
      break;
    }
    case 'add-gate':
      file(edit.file).gates.push({ ...edit.gate, id: freshId() });
      break;
    case 'add-file': {
      const taken = new Set(tree.map((x) => x.path));
      const free = [...PATHS, 'gates/r9.md'].filter((p) => !taken.has(p));
      if (free.length === 0) break;
      tree.push({ path: free[edit.path % free.length]!, owns: [], gates: [{ ...edit.gate, id: freshId() }], style: tree[0]!.style });
      break;
    }
  }
  return tree;
}

/** One weakening edit, judged against the base: `base` is the tree the edits started from. */
export function applyWeakening(base: TreeModel, input: TreeModel, edit: WeakeningEdit): TreeModel | null {
  const tree = clone(input);
  const atBase = new Map(base.flatMap((f) => f.gates.map((g) => [g.tag!, g] as const)));
  const origin = (where: (g: GateModel) => boolean = () => true) => allGates(tree, (g) => fromBase(g) && where(g));
  const pickOf = <T>(list: T[], n: number): T | null => (list.length === 0 ? null : list[n % list.length]!);
  switch (edit.kind) {
    case 'remove': {
      const p = pickOf(origin(), edit.pick);
      if (!p) return null;
      p.file.gates.splice(p.index, 1);
      return dropEmpty(tree);
    }
    case 'to-manual': {
      const p = pickOf(origin((g) => g.def !== null), edit.pick);
      if (!p) return null;
      p.file.gates[p.index]!.def = null;
      return tree;
    }
    case 'to-runnable': {
      const p = pickOf(origin((g) => g.def === null), edit.pick);
      if (!p) return null;
      p.file.gates[p.index]!.def = edit.def;
      return tree;
    }
    case 'field': {
      const p = pickOf(origin((g) => g.def !== null), edit.pick);
      if (!p) return null;
      const d = p.file.gates[p.index]!.def!;
      if (edit.field === 'CHECK') d.check = `${d.check} --changed`;
      if (edit.field === 'EXPECT') d.expect = `${d.expect} too`;
      if (edit.field === 'CWD') d.cwd = d.cwd === null ? 'elsewhere' : null;
      if (edit.field === 'DEPENDS') d.depends = d.depends === null ? ['extra.js'] : d.depends.length > 1 ? d.depends.slice(1) : null;
      if (edit.field === 'INPUTS') d.inputs = d.inputs === null ? ['extra.json'] : [...d.inputs, 'extra.json'];
      if (edit.field === 'TIMEOUT') d.timeout = d.timeout === null ? 30 : d.timeout + 1;
      return tree;
    }
    case 'abandon': {
      // A gate handed off at the base and withdrawn since is not newly handed off.
      const p = pickOf(origin((g) => g.abandon === null && atBase.get(g.tag!)!.abandon === null), edit.pick);
      if (!p) return null;
      p.file.gates[p.index]!.abandon = 'cannot be done';
      return tree;
    }
    case 'delete-file': {
      const files = tree.filter((f) => f.gates.some(fromBase));
      const f = pickOf(files, edit.file);
      if (!f) return null;
      return tree.filter((x) => x !== f);
    }
    case 'move-out-of-group': {
      const p = pickOf(origin(), edit.pick);
      if (!p) return null;
      const g = p.file.gates[p.index]!;
      const targets = PATHS.filter((path) => groupOf(path) !== groupOf(p.file.path));
      const path = targets[edit.to % targets.length]!;
      let target = tree.find((f) => f.path === path);
      if (target?.gates.some((x) => x.id === g.id)) return null;
      p.file.gates.splice(p.index, 1);
      if (!target) {
        target = { path, owns: [], gates: [], style: p.file.style };
        tree.push(target);
      }
      target.gates.push(g);
      return dropEmpty(tree);
    }
  }
}
