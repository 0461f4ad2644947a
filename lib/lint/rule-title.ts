// activity-title: a gate names an outcome ("CSV import keeps every row"), not the work that
// leads to it ("implement CSV import"): an activity is "done" when someone stops, an outcome
// when it is true. Pure.
import { plain } from './excerpt.js';
import type { GateFinding } from './types.js';

const ACTIVITY_VERBS = [
  'implement', 'add', 'write', 'fix', 'update', 'create', 'refactor', 'run', 'make', 'build',
  'investigate', 'try', 'work on', 'start', 'finish', 'do', 'set up', 'setup', 'clean up', 'cleanup',
  'move', 'rename', 'remove', 'delete', 'improve', 'look into', 'figure out', 'debug', 'migrate',
  'implementing', 'adding', 'writing', 'fixing', 'updating', 'creating', 'refactoring', 'running',
  'making', 'building', 'investigating', 'trying', 'working on', 'starting', 'finishing', 'doing',
  'setting up', 'cleaning up', 'moving', 'renaming', 'removing', 'deleting', 'improving', 'debugging', 'migrating',
];

/**
 * Finite verbs that show the first word was a noun after all: "build passes", "run output is
 * stable", "update check reports the version". Base forms (pass, work) are left out on
 * purpose: "make tests pass" is still an activity.
 */
const OUTCOME_VERBS = new Set([
  'is', 'are', 'was', 'were', 'has', 'have', 'stays', 'remains', 'works', 'passes', 'succeeds', 'fails',
  'returns', 'prints', 'exits', 'matches', 'completes', 'produces', 'reports', 'contains', 'shows',
  'handles', 'rejects', 'accepts', 'builds', 'compiles', 'finishes', 'starts', 'runs', 'lists', 'keeps',
  'reads', 'writes', 'creates', 'renders', 'loads', 'resolves', 'emits', 'outputs', 'behaves', 'equals',
  'includes', 'exists', 'agrees', 'finds', 'skips', 'uses', 'takes', 'round-trips', "doesn't", 'never',
]);

export function titleRule(title: string, line: number): GateFinding[] {
  // Markdown emphasis and code marks around the first word do not change what it says.
  // Only the first words can name an activity: a megabyte title is not split whole.
  const words = title.slice(0, 200).replace(/[*_`~]/g, ' ').trim().split(/\s+/).map((w) => stripTrailingPunctuation(w.toLowerCase()));
  const verb = ACTIVITY_VERBS.filter((v) => startsWith(words, v.split(' '))).sort((a, b) => b.length - a.length)[0];
  if (verb === undefined) return [];
  const verbWords = verb.split(' ').length;
  if (words.slice(verbWords, verbWords + 2).some((w) => OUTCOME_VERBS.has(w))) return [];
  const rest = title.trim().split(/\s+/).slice(verbWords).join(' ');
  const subject = rest === '' ? 'X' : plain(rest, 60);
  // The verb cannot be conjugated for an arbitrary subject: show the shape, not a sentence.
  return [
    {
      line,
      rule: 'activity-title',
      message: `title "${plain(title, 100)}" names an activity ("${verb} …"), not an outcome: it says what to do, not what must be true when it is done`,
      suggestion: `phrase the outcome: "${subject} …" followed by what is true when it is done ("X works", "X is …")`,
    },
  ];
}

/** "done:" to "done"; by hand, because /[:,.;!]+$/ is quadratic on a long run of them. */
function stripTrailingPunctuation(word: string): string {
  let end = word.length;
  while (end > 0 && ':,.;!'.includes(word[end - 1]!)) end--;
  return word.slice(0, end);
}

function startsWith(words: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= words.length && prefix.every((p, i) => words[i] === p);
}
