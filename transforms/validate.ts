import type { Transform } from 'node:stream';
import type { SchemaKind } from '../lib/protocol/schemas.js';
import type { Parsed } from '../lib/protocol/types.js';
import { validateParsed } from '../lib/protocol/validate.js';
import { mapStream } from '../lib/streams.js';

/** `{ value, lineNo }` → the typed event, checked against `lib/protocol/schemas/<kind>.schema.json`. */
export function validate(kind: SchemaKind, options: { label?: string } = {}): Transform {
  return mapStream((parsed: Parsed) => validateParsed(kind, parsed, options.label));
}
