import { createRequire } from 'node:module';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { loadSchema, type SchemaKind } from './schemas.js';
import { UsageError } from '../errors.js';
import { redactText } from '../redaction/text.js';
import type { Parsed } from './types.js';

export type Verdict<T> = { ok: true; value: T } | { ok: false; field: string; problem: string };

/**
 * The schemas' patterns, each remembering the last string it accepted: a log (and a run) repeats its runId on every
 * event, so most checks are one comparison. A pattern's test depends on the string alone: the answer is the same.
 */
const rememberingRegExp = Object.assign(
  (pattern: string, flags: string) => {
    const regex = new RegExp(pattern, flags);
    let accepted: string | undefined;
    return {
      test(text: string): boolean {
        if (text === accepted) return true;
        if (!regex.test(text)) return false;
        accepted = text;
        return true;
      },
      // ajv tells patterns apart by this
      toString: () => regex.toString(),
    };
  },
  { code: 'rememberingRegExp' },
);

/**
 * ajv, loaded when a first schema is compiled: loading it costs ~60 ms, which every command paid at start through
 * this module's importers though only some check a schema (`zero redact` never does). It is CommonJS: required.
 */
let ajv: Ajv | undefined;
function ajvInstance(): Ajv {
  if (ajv) return ajv;
  const { Ajv: AjvClass } = createRequire(import.meta.url)('ajv') as typeof import('ajv');
  // validateSchema: our own schemas are checked against the meta-schema by their test, not at every start (75 ms);
  // strictNumbers: a number JSON cannot write back (`1e400` reads as Infinity) is no number of an event
  return (ajv = new AjvClass({ discriminator: true, allErrors: false, strict: false, strictNumbers: true, validateSchema: false, code: { regExp: rememberingRegExp } }));
}
const compiled = new Map<SchemaKind, ValidateFunction>();

function validatorFor(kind: SchemaKind): ValidateFunction {
  let validate = compiled.get(kind);
  if (!validate) {
    validate = ajvInstance().compile(loadSchema(kind));
    compiled.set(kind, validate);
  }
  return validate;
}

/** `/toolCalls/0/name` → `toolCalls[0].name` */
function fieldName(pointer: string, child?: string): string {
  const parts = pointer.split('/').slice(1).map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (child !== undefined) parts.push(child);
  return parts.reduce((name, part) => (/^\d+$/.test(part) ? `${name}[${part}]` : name ? `${name}.${part}` : part), '') || '(root)';
}


/** The JSON type of a value as people name it: null, array, object, string, number, boolean. */
export function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  // `1e400` in JSON reads as Infinity, which JSON cannot write back (JSON.stringify gives null)
  if (typeof value === 'number' && !Number.isFinite(value)) return 'a number too large for JSON (Infinity)';
  return typeof value;
}

function valueAt(root: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), root);
}

/**
 * One ajv error as `{ field, problem }`, worded for people (and models), redacted: it quotes the value or key it
 * refuses, and a program that logs the message of a bad event holding a key must not log the key.
 */
export function describeSchemaError(error: ErrorObject, root: unknown): { field: string; problem: string } {
  const { field, problem } = describeUnredacted(error, root);
  return { field: redactText(field), problem: redactText(problem) };
}

function describeUnredacted(error: ErrorObject, root: unknown): { field: string; problem: string } {
  const params = error.params as Record<string, unknown>;
  const value = valueAt(root, error.instancePath);
  switch (error.keyword) {
    case 'additionalProperties':
      return { field: fieldName(error.instancePath, String(params.additionalProperty)), problem: `Unrecognized key: "${params.additionalProperty}"` };
    case 'required':
      return { field: fieldName(error.instancePath, String(params.missingProperty)), problem: 'Required field is missing' };
    case 'type':
      return { field: fieldName(error.instancePath), problem: `Expected ${params.type}, received ${typeOf(value)}` };
    case 'const':
      return { field: fieldName(error.instancePath), problem: `Expected ${JSON.stringify(params.allowedValue)}, received ${JSON.stringify(value)}` };
    case 'enum':
      return { field: fieldName(error.instancePath), problem: `Expected one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}, received ${JSON.stringify(value)}` };
    case 'minimum':
      return { field: fieldName(error.instancePath), problem: `Must be at least ${params.limit}, received ${JSON.stringify(value)}` };
    case 'minLength':
      return { field: fieldName(error.instancePath), problem: params.limit === 1 ? 'Must not be empty' : `Must be at least ${params.limit} characters` };
    case 'discriminator': {
      const tag = String(params.tag);
      const tagValue = (root as Record<string, unknown>)[tag];
      return { field: fieldName(error.instancePath, tag), problem: typeof tagValue === 'string' ? `Unknown ${tag} ${JSON.stringify(tagValue)}` : `Expected string, received ${typeOf(tagValue)}` };
    }
    case 'false schema':
      return { field: fieldName(error.instancePath), problem: 'Not allowed together with the other fields given' };
    default:
      return { field: fieldName(error.instancePath), problem: error.message ?? 'Invalid value' };
  }
}

/**
 * The output schemas' delta shortcut: the runId of the last event each accepted. A text (or v2 reasoning) delta is
 * most lines of a log, and most of its check is walking its text for minLength 1 (ajv counts code points); one
 * whose fields are the delta's four, with that runId (the same pattern in every branch), conforms without ajv.
 */
const acceptedRunId: Partial<Record<SchemaKind, string>> = {};
const DELTA_VERSION: Partial<Record<SchemaKind, number>> = { output: 1, 'output.v2': 2 };

function isKnownDelta(kind: SchemaKind, value: unknown): boolean {
  const runId = acceptedRunId[kind];
  if (runId === undefined || typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const event = value as Record<string, unknown>;
  const version = DELTA_VERSION[kind];
  if (event.runId !== runId || event.schemaVersion !== version || typeof event.delta !== 'string' || event.delta === '') return false;
  if (event.type !== 'text' && !(event.type === 'reasoning' && version === 2)) return false;
  // ajv's own test for a stray field (its required test reads the four as these reads do)
  for (const key in event) if (key !== 'schemaVersion' && key !== 'type' && key !== 'runId' && key !== 'delta') return false;
  return true;
}

/** Whether a value conforms to one of the shipped schemas: checkAgainstSchema's answer, without the verdict (ajv's errors are left on `validatorFor(kind).errors`). */
export function conformsToSchema(kind: SchemaKind, value: unknown): boolean {
  if (isKnownDelta(kind, value)) return true;
  if (!validatorFor(kind)(value)) return false;
  if (kind in DELTA_VERSION) acceptedRunId[kind] = (value as { runId: string }).runId;
  return true;
}

function verdict<T>(validate: ValidateFunction, value: unknown, accepted = validate(value)): Verdict<T> {
  if (accepted) return { ok: true, value: value as T };
  const [first] = validate.errors ?? [];
  return first ? { ok: false, ...describeSchemaError(first, value) } : { ok: false, field: '(root)', problem: 'Invalid value' };
}

/** Checks a value against one of the shipped schemas; the first problem found is reported. */
export function checkAgainstSchema<T>(kind: SchemaKind, value: unknown): Verdict<T> {
  return verdict<T>(validatorFor(kind), value, conformsToSchema(kind, value));
}

/** A checker for any other JSON Schema (a tool's arguments, say), compiled once, reporting like checkAgainstSchema. */
export function compileChecker<T>(schema: Record<string, unknown>): (value: unknown) => Verdict<T> {
  const validate = ajvInstance().compile(schema);
  return (value) => verdict<T>(validate, value);
}

const defaultLabels: Record<SchemaKind, string> = {
  input: 'stream-json input',
  'input.v2': 'stream-json input',
  output: 'output event',
  'output.v2': 'output event',
  script: 'script',
};

/** The verdict's value, or a usage error naming the line and the field: `Invalid <label> at line N: <field>: <problem>`. */
export function acceptLine<T>(kind: SchemaKind, verdict: Verdict<T>, lineNo: number, label = defaultLabels[kind]): T {
  if (verdict.ok) return verdict.value;
  throw new UsageError(`Invalid ${label} at line ${lineNo}: ${verdict.field}: ${verdict.problem}`);
}

/** A parsed line checked against a schema; a violation is a usage error naming the line and the field. */
export function validateParsed<T>(kind: SchemaKind, { value, lineNo }: Parsed, label?: string): T {
  return acceptLine(kind, checkAgainstSchema<T>(kind, value), lineNo, label);
}
