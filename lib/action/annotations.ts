// GitHub's annotation caps, applied to the annotations gate-check prints in the action's
// step: 10 of each type (error, warning, notice) per step and 50 per job. gate-check prints
// at most 10 errors and 10 warnings per run; the action adds the job's budget (what earlier
// runs of the action in the same job used) and counts what it held back, so that the job
// summary can say how many gates have no annotation. Only gate-check's own lines start with
// "::" (untrusted text never does), so a line-start match finds exactly its annotations.
// Pure.

export const PER_STEP_PER_TYPE = 10;
export const PER_JOB = 50;

export type AnnotationType = 'error' | 'warning' | 'notice';

const ANNOTATION = /^::(error|warning|notice)(?: ([^:]*))?::/;

export interface ParsedAnnotation {
  type: AnnotationType;
  properties: Record<string, string>;
}

function unescapeProperty(v: string): string {
  return v.replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
}

export function parseAnnotation(line: string): ParsedAnnotation | null {
  const m = ANNOTATION.exec(line);
  if (!m) return null;
  const properties: Record<string, string> = Object.create(null);
  for (const p of (m[2] ?? '').split(',')) {
    const eq = p.indexOf('=');
    if (eq > 0) properties[p.slice(0, eq)] = unescapeProperty(p.slice(eq + 1));
  }
  return { type: m[1] as AnnotationType, properties };
}

export class AnnotationBudget {
  private readonly perType: Record<AnnotationType, number> = { error: 0, warning: 0, notice: 0 };
  /** Annotations let through in this step. */
  shown = 0;
  /** Annotations held back by a cap. */
  held = 0;
  /** Gates (qualified ids, from the title of an annotation on a file line) that got one. */
  readonly annotatedGates = new Set<string>();

  /** @param jobUsed annotations earlier steps of this job already made (as far as the action knows). */
  constructor(private readonly jobUsed: number) {}

  /** Whether the line may reach the runner: it is no annotation, or one within every cap. */
  admit(line: string): boolean {
    const a = parseAnnotation(line);
    if (!a) return true;
    if (this.perType[a.type] >= PER_STEP_PER_TYPE || this.jobUsed + this.shown >= PER_JOB) {
      this.held++;
      return false;
    }
    this.perType[a.type]++;
    this.shown++;
    const title = a.properties.title;
    if (a.properties.file !== undefined && title !== undefined) this.annotatedGates.add(title);
    return true;
  }

  /** Job total after this step. */
  jobTotal(): number {
    return this.jobUsed + this.shown;
  }
}
