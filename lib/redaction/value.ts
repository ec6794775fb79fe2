/**
 * Redacting whole JSON values and protocol events: strings through redactText,
 * anything under a sensitive key replaced by the marker, containers recursed.
 */

import { MAX_JSON_DEPTH } from '../protocol/depth.js';
import { redactEventId } from './ids.js';
import { isSensitiveKey } from './keys.js';
import { cachedByName } from './names.js';
import { REDACTED } from './rule.js';
import { prepareSecrets, redactText, type RedactOptions } from './text.js';

/**
 * What a walk puts under a key it knows the shape of: the value itself (or an id, redacted as an id), or CONTENT
 * when the value is to be redacted as content.
 */
type Known = (key: string, value: unknown, options: RedactOptions | undefined) => unknown;
const CONTENT = Symbol('content');

/**
 * Top-level event fields that are protocol structure, kept as they are — while
 * they look like it: in a hand-edited log a `type` can hold anything, and is
 * then redacted like content. The ids (`id`, `runId`, `sessionId`) go through
 * redactEventId, which keeps them valid ids.
 */
const eventStructure: Known = (key, value, options) => {
  switch (key) {
    case 'type':
      return typeof value === 'string' && isTypeName(value) ? value : CONTENT;
    case 'runId':
    case 'id':
    case 'sessionId':
      return typeof value === 'string' ? redactEventId(key, value, options) : CONTENT;
    case 'schemaVersion':
      return typeof value === 'number' ? value : CONTENT;
    default:
      return CONTENT;
  }
};

/** A log has a handful of types, repeated: each judged once. */
const isTypeName = cachedByName((value) => /^[a-z_]{1,32}$/.test(value));

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

/** What the walk needs to know of a key: keys repeat endlessly, so each is judged once. */
class KeyJudgement {
  /** Whether what is under it is a secret (isSensitiveKey). */
  readonly sensitive: boolean;
  #plain: string | undefined;
  constructor(readonly key: string) {
    this.sensitive = isSensitiveKey(key);
  }
  /** The key redacted when no credential is loaded (the answer then depends on the key alone): made only if asked. */
  get plain(): string {
    return (this.#plain ??= this.key.length < SHORTEST_SECRET ? this.key : redactText(this.key));
  }
}

const judgeKey = cachedByName((key) => new KeyJudgement(key));

function redactUnder(judged: KeyJudgement, value: unknown, walk: Walk): unknown {
  if (judged.sensitive && !isEmptyish(value)) return REDACTED;
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

/** A key is text too: a model can put a secret in the name of a tool argument (`{"sk-…": 1}`). */
function redactKey(key: string, judged: KeyJudgement, walk: Walk): string {
  if (key.length < SHORTEST_SECRET) return key;
  return prepareSecrets(walk.options?.secrets).length === 0 ? judged.plain : redactText(key, walk.options);
}

function redactObject(object: Record<string, unknown>, walk: Walk, known?: Known): object {
  if (!walk.copy) {
    // the common case, nothing to change: no key list, no new object. for…in
    // (no array of keys) also visits inherited enumerable keys: harmless
    // while nothing changes, and a change under one copies the own keys afresh
    for (const key in object) {
      const value = object[key];
      const shaped = known === undefined ? CONTENT : known(key, value, walk.options);
      let redacted = shaped;
      let outKey = key;
      if (shaped === CONTENT) {
        const judged = judgeKey(key);
        redacted = redactUnder(judged, value, walk);
        outKey = redactKey(key, judged, walk);
      }
      if (redacted !== value || outKey !== key) {
        return Object.hasOwn(object, key) ? copyObject(object, walk, known, { key, outKey, value: redacted }) : copyObject(object, walk, known);
      }
    }
    return object;
  }
  return copyObject(object, walk, known);
}

/** The first key whose entry changes, and what it becomes. */
interface Change {
  readonly key: string;
  readonly outKey: string;
  readonly value: unknown;
}

/** A new object with every entry redacted; the keys before `change` (which they left as they were) and its own are not walked again. */
function copyObject(object: Record<string, unknown>, walk: Walk, known?: Known, change?: Change): object {
  const out: Record<string, unknown> = {};
  let walked = change === undefined;
  for (const key of Object.keys(object)) {
    const value = object[key];
    if (!walked) {
      walked = key === change!.key;
      if (walked) setOwn(out, change!.outKey, change!.value);
      else setOwn(out, key, value);
      continue;
    }
    const shaped = known === undefined ? CONTENT : known(key, value, walk.options);
    if (shaped !== CONTENT) setOwn(out, key, shaped);
    else {
      const judged = judgeKey(key);
      setOwn(out, redactKey(key, judged, walk), redactUnder(judged, value, walk));
    }
  }
  return out;
}

function redactAny(value: unknown, walk: Walk, known?: Known): unknown {
  if (typeof value === 'string') return redactText(value, walk.options);
  if (typeof value !== 'object' || value === null) return value;
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return redactAny(toJSON.call(value), walk, known);
  if (walk.ancestors.length >= MAX_JSON_DEPTH) return TOO_DEEP;
  if (walk.ancestors.includes(value)) return CIRCULAR;
  walk.ancestors.push(value);
  const out = Array.isArray(value) ? redactArray(value, walk) : redactObject(value as Record<string, unknown>, walk, known);
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
 * their protocol shape (see eventStructure), the ids go through redactId (so they stay valid ids), and an event
 * with nothing to redact comes back as the same object.
 */
export function redactEvent<T extends object>(event: T, options?: RedactOptions): T {
  return redactAny(event, { options, copy: false, ancestors: [] }, eventStructure) as T;
}
