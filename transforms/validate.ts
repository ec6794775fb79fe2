import type { Transform } from 'node:stream';
import type { SchemaKind } from '../lib/protocol/schemas.js';
import { validateStep, type LineValidatorOptions } from '../lib/protocol/schema-version.js';
import { stepStream } from '../lib/streams.js';

/**
 * `{ value, lineNo }` → the typed event, checked against `lib/protocol/schemas/`: `input` and `output`
 * by each line's schemaVersion, one version per input and per run; any other kind against its own file.
 */
export function validate(kind: SchemaKind, options: LineValidatorOptions = {}): Transform {
  return stepStream(validateStep(kind, options));
}
