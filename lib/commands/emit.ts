// Where a finished report goes: stdout (text or --json); then, only when asked for, the CI
// outputs (loaded lazily: the status path stays lean).
import type { Io } from '../program/io.js';
import { renderJson } from '../report/json.js';
import type { Report } from '../report/model.js';

export interface EmitOptions {
  json: boolean;
  junit: string | undefined;
  strict: boolean;
}

export async function emitReport(report: Report, options: EmitOptions, io: Io, humanText: () => string): Promise<void> {
  io.stdout(options.json ? renderJson(report) : humanText());
  if (options.junit !== undefined || io.env.GITHUB_ACTIONS === 'true') {
    const { writeCiOutputs } = await import('./deferred.js');
    writeCiOutputs(report, options, io);
  }
}
