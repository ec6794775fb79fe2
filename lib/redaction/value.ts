/**
 * Redacting whole JSON values and protocol events: strings through redactText,
 * anything under a sensitive key replaced by the marker, containers recursed.
 */

import { isSensitiveKey } from './keys.js';
import { REDACTED } from './rule.js';
import { redactText, type RedactOptions } from './text.js';

/** Top-level event fields that are protocol structure, never user content. */
const EVENT_STRUCTURE_KEYS: ReadonlySet<string> = new Set(['type', 'runId', 'sessionId', 'id', 'schemaVersion']);

const CIRCULAR = '[Circular]';

interface Walk {
  readonly options: RedactOptions | undefined;
  /** true: always build new containers (a deep copy); false: reuse unchanged ones. */
  readonly copy: boolean;
  readonly ancestors: Set<object>;
}

/** Nothing to hide under a sensitive key: null, undefined, booleans and the empty string. */
function isEmptyish(value: unknown): boolean {
  return value === null || value === undefined || typeof value === 'boolean' || value === '';
}

function redactUnder(key: string, value: unknown, walk: Walk): unknown {
  if (isSensitiveKey(key) && !isEmptyish(value)) return REDACTED;
  return redactAny(value, walk);
}

function redactArray(array: readonly unknown[], walk: Walk): unknown[] {
  let changed = walk.copy;
  const out = array.map((item) => {
    const redacted = redactAny(item, walk);
    if (redacted !== item) changed = true;
    return redacted;
  });
  return changed ? out : (array as unknown[]);
}

function redactObject(object: Record<string, unknown>, walk: Walk, keep?: ReadonlySet<string>): object {
  let changed = walk.copy;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(object)) {
    const value = object[key];
    const redacted = keep?.has(key) ? value : redactUnder(key, value, walk);
    if (redacted !== value) changed = true;
    out[key] = redacted;
  }
  return changed ? out : object;
}

function redactAny(value: unknown, walk: Walk, keep?: ReadonlySet<string>): unknown {
  if (typeof value === 'string') return redactText(value, walk.options);
  if (typeof value !== 'object' || value === null) return value;
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return redactAny(toJSON.call(value), walk, keep);
  if (walk.ancestors.has(value)) return CIRCULAR;
  walk.ancestors.add(value);
  try {
    return Array.isArray(value)
      ? redactArray(value, walk)
      : redactObject(value as Record<string, unknown>, walk, keep);
  } finally {
    walk.ancestors.delete(value);
  }
}

/**
 * A redacted deep copy of a JSON value: every string through redactText, the
 * value under a sensitive key replaced by `"[REDACTED]"` (unless it is null,
 * a boolean or empty). The input is never modified.
 */
export function redactValue<T>(value: T, options?: RedactOptions): T {
  return redactAny(value, { options, copy: true, ancestors: new Set() }) as T;
}

/**
 * What the redact stage applies to each protocol event: like redactValue, but
 * the top-level `type`, `runId`, `sessionId`, `id` and `schemaVersion` are
 * left alone, and an event with nothing to redact comes back as the same object.
 */
export function redactEvent<T extends object>(event: T, options?: RedactOptions): T {
  return redactAny(event, { options, copy: false, ancestors: new Set() }, EVENT_STRUCTURE_KEYS) as T;
}
