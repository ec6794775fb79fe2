import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package.js';

export type SchemaKind = 'input' | 'output' | 'input.v2' | 'output.v2' | 'script';

/** Absolute path of a shipped JSON Schema file (also importable as `zero-stream/schemas/<kind>.schema.json`). */
export function schemaPath(kind: SchemaKind): string {
  return join(packageRoot(), 'lib', 'protocol', 'schemas', `${kind}.schema.json`);
}

export function loadSchema(kind: SchemaKind): Record<string, unknown> {
  return JSON.parse(readFileSync(schemaPath(kind), 'utf8')) as Record<string, unknown>;
}
