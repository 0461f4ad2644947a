import { Ajv } from 'ajv';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const schema = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../references/report.schema.json'), 'utf8'));
const ajv = new Ajv({ allErrors: true, strict: true });
const validate = ajv.compile(schema);

/** Throws with every schema violation when `doc` does not match references/report.schema.json. */
export function assertReportSchema(doc: unknown): void {
  if (!validate(doc)) throw new Error('report does not match the schema:\n' + JSON.stringify(validate.errors, null, 2));
}
