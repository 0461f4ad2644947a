// The --json document (DESIGN §4; schema in references/report.schema.json).
import { terminalSafeJson } from '../text/sanitize.js';
import type { Report } from './model.js';

export function renderJson(report: Report): string {
  return terminalSafeJson(report) + '\n';
}
