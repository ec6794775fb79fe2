import type { Transform } from 'node:stream';
import type { SchemaKind } from '../lib/protocol/schemas.js';
import { validateStep, type LineValidatorOptions } from '../lib/protocol/schema-version.js';
import type { Parsed } from '../lib/protocol/types.js';
import { stepStream } from '../lib/streams.js';
import { aFunction, aString, checkOptions, checkValue, oneOf } from '../lib/options.js';

const KINDS: readonly SchemaKind[] = ['input', 'output', 'input.v2', 'output.v2', 'script'];

/** `{ value, lineNo }` as the parse stage writes it; anything else is taken for the value itself. */
const isParsed = (item: unknown): item is Parsed => typeof (item as Partial<Parsed> | null)?.lineNo === 'number' && 'value' in (item as object);

/**
 * `{ value, lineNo }` (the parse stage's) or the value itself (a program's own event objects, numbered 1, 2, … as
 * lines) → the typed event, checked against `lib/protocol/schemas/`: `input` and `output` by each value's
 * schemaVersion, one version per input and per run; any other kind against its own file.
 */
export function validate(kind: SchemaKind, options: LineValidatorOptions = {}): Transform {
  checkValue('validate', 'kind', kind, oneOf(KINDS));
  const step = validateStep(kind, checkOptions('validate', options, { label: aString, onSchemaVersion: aFunction }));
  let count = 0;
  return stepStream<unknown, unknown>({
    write(item, emit) {
      count++;
      step.write(isParsed(item) ? item : { value: item, lineNo: count }, emit);
    },
  });
}
