/**
 * Tool call ids come from the model, and a log zero did not write may hold
 * any run or session id, so they may carry a secret. The output schema
 * requires an id to match `^[A-Za-z0-9][A-Za-z0-9._:-]*$`, which
 * `[REDACTED]` does not: an id holding a secret becomes `redacted_` and 16 hex
 * digits of its SHA-256 instead. The same id always gives the same
 * replacement, so a tool_call and its tool_result still pair up.
 */

import { createHash } from 'node:crypto';
import { RUN_ID_PATTERN, SESSION_ID_PATTERN } from '../protocol/ids.js';
import { redactText, type RedactOptions } from './text.js';

export const REDACTED_ID_PREFIX = 'redacted_';

/** What an id holding a secret is shown as: a client answering a call by it means that call. */
export const hashedId = (id: string): string => `${REDACTED_ID_PREFIX}${createHash('sha256').update(id).digest('hex').slice(0, 16)}`;

export function redactId(id: string, options?: RedactOptions): string {
  return redactText(id, options) === id ? id : hashedId(id);
}

/** The ids of an event; zero's own run and session ids are kept as they are (no secret fits their form). */
const ID_FIELDS: [string, RegExp | undefined][] = [['id', undefined], ['runId', RUN_ID_PATTERN], ['sessionId', SESSION_ID_PATTERN]];
/** Per field, the last id kept and the options it was checked with: every event of a run repeats its runId (compared before its form is tested). */
const lastKept = new Map<string, { id: string; options: RedactOptions | undefined }>();

/** The event with its top-level string ids through redactId (the same object when nothing changes). */
export function withRedactedIds<T extends object>(event: T, options?: RedactOptions): T {
  let out = event;
  for (const [field, own] of ID_FIELDS) {
    const id = (event as Record<string, unknown>)[field];
    if (typeof id !== 'string') continue;
    const kept = lastKept.get(field);
    if (kept?.id === id && kept.options === options) continue;
    const redacted = own?.test(id) ? id : redactId(id, options);
    if (redacted === id) lastKept.set(field, { id, options });
    else out = { ...out, [field]: redacted };
  }
  return out;
}
