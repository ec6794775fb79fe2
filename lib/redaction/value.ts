/**
 * Redacting whole JSON values and protocol events: strings through redactText,
 * anything under a sensitive key replaced by the marker, containers recursed.
 */

import { MAX_JSON_DEPTH } from '../protocol/depth.js';
import { withRedactedIds } from './ids.js';
import { isSensitiveKey } from './keys.js';
import { cachedByName } from './names.js';
import { REDACTED } from './rule.js';
import { prepareSecrets, redactText, type RedactOptions } from './text.js';

type Keep = (key: string, value: unknown) => boolean;

/**
 * Top-level event fields that are protocol structure, kept as they are — while
 * they look like it: in a hand-edited log a `type` can hold anything, and is
 * then redacted like content. The ids (`id`, `runId`, `sessionId`) are
 * withRedactedIds', which keeps them valid ids.
 */
const isStructure: Keep = (key, value) => {
  // every event has a type and a runId: checked first, most often against the last one seen
  switch (key) {
    case 'type':
      return value === lastType || isTypeName(value);
    case 'runId':
    case 'id':
    case 'sessionId':
      return typeof value === 'string';
    case 'schemaVersion':
      return typeof value === 'number';
    default:
      return false;
  }
};

/** The last type that had its shape: a log repeats it, so most checks are one comparison. */
let lastType = '';

function isTypeName(value: unknown): boolean {
  if (typeof value !== 'string' || !/^[a-z_]{1,32}$/.test(value)) return false;
  lastType = value;
  return true;
}

/** No rule matches fewer characters than a short known credential (MIN_SECRET_LENGTH): shorter keys need no look. */
const SHORTEST_SECRET = 8;

const CIRCULAR = '[Circular]';
/** What replaces a container nested deeper than MAX_JSON_DEPTH: the walk recurses, and must not overflow the stack. */
const TOO_DEEP = '[Too deep]';

interface Walk {
  readonly options: RedactOptions | undefined;
  /** true: always build new containers (a deep copy); false: reuse unchanged ones. */
  readonly copy: boolean;
  /** The containers being walked, outermost first (a stack: shallow, so a linear search is cheap). */
  readonly ancestors: object[];
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
  // built only once something changes (or always, for a copy)
  let out: unknown[] | undefined = walk.copy ? [] : undefined;
  for (let index = 0; index < array.length; index++) {
    const item = array[index];
    const redacted = redactAny(item, walk);
    if (out === undefined && redacted !== item) out = array.slice(0, index);
    if (out !== undefined) out.push(redacted);
  }
  return out ?? (array as unknown[]);
}

/** `out[key] = value`, except that a `__proto__` key (JSON.parse makes it an own property) stays a property. */
function setOwn(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

/** redactText of a key when no credential is loaded (the answer then depends on the key alone). */
const redactPlainKey = cachedByName((key) => redactText(key));

/** A key is text too: a model can put a secret in the name of a tool argument (`{"sk-…": 1}`). */
function redactKey(key: string, walk: Walk): string {
  if (key.length < SHORTEST_SECRET) return key;
  return prepareSecrets(walk.options?.secrets).length === 0 ? redactPlainKey(key) : redactText(key, walk.options);
}

function redactObject(object: Record<string, unknown>, walk: Walk, keep?: Keep): object {
  if (!walk.copy) {
    // the common case, nothing to change: no key list, no new object. for…in
    // (no array of keys) also visits inherited enumerable keys: harmless
    // while nothing changes, and a change under one copies the own keys afresh
    for (const key in object) {
      const value = object[key];
      const kept = keep !== undefined && keep(key, value);
      const redacted = kept ? value : redactUnder(key, value, walk);
      if (redacted !== value || (!kept && redactKey(key, walk) !== key)) {
        return Object.hasOwn(object, key) ? copyObject(object, walk, keep, key, redacted) : copyObject(object, walk, keep);
      }
    }
    return object;
  }
  return copyObject(object, walk, keep);
}

/** A new object with every value redacted; `changedKey` (already redacted to `changedValue`) and the keys before it are not walked again. */
function copyObject(
  object: Record<string, unknown>,
  walk: Walk,
  keep?: Keep,
  changedKey?: string,
  changedValue?: unknown,
): object {
  const out: Record<string, unknown> = {};
  let walked = changedKey === undefined;
  for (const key of Object.keys(object)) {
    const value = object[key];
    const kept = keep !== undefined && keep(key, value);
    const outKey = kept ? key : redactKey(key, walk);
    if (key === changedKey) {
      walked = true;
      setOwn(out, outKey, changedValue);
      continue;
    }
    setOwn(out, outKey, !walked || kept ? value : redactUnder(key, value, walk));
  }
  return out;
}

function redactAny(value: unknown, walk: Walk, keep?: Keep): unknown {
  if (typeof value === 'string') return redactText(value, walk.options);
  if (typeof value !== 'object' || value === null) return value;
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return redactAny(toJSON.call(value), walk, keep);
  if (walk.ancestors.length >= MAX_JSON_DEPTH) return TOO_DEEP;
  if (walk.ancestors.includes(value)) return CIRCULAR;
  walk.ancestors.push(value);
  const out = Array.isArray(value) ? redactArray(value, walk) : redactObject(value as Record<string, unknown>, walk, keep);
  walk.ancestors.pop();
  return out;
}

/**
 * A redacted deep copy of a JSON value: every string through redactText, the
 * value under a sensitive key replaced by `"[REDACTED]"` (unless it is null,
 * a boolean or empty), a container nested more than MAX_JSON_DEPTH levels
 * down by `"[Too deep]"`. The input is never modified.
 */
export function redactValue<T>(value: T, options?: RedactOptions): T {
  return redactAny(value, { options, copy: true, ancestors: [] }) as T;
}

/**
 * What the redact stage applies to each protocol event: like redactValue, but
 * the top-level `type` and `schemaVersion` are left alone while they have
 * their protocol shape (see isStructure), the ids go through redactId (so they stay valid ids), and an event
 * with nothing to redact comes back as the same object.
 */
export function redactEvent<T extends object>(event: T, options?: RedactOptions): T {
  return withRedactedIds(redactAny(event, { options, copy: false, ancestors: [] }, isStructure) as T, options);
}
