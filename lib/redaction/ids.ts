/**
 * Tool call ids come from the model, so they may carry a secret. The output
 * schema requires an id to match `^[A-Za-z0-9][A-Za-z0-9._:-]*$`, which
 * `[REDACTED]` does not: an id holding a secret becomes `redacted_` and 16 hex
 * digits of its SHA-256 instead. The same id always gives the same
 * replacement, so a tool_call and its tool_result still pair up.
 */

import { createHash } from 'node:crypto';
import { redactText, type RedactOptions } from './text.js';

export const REDACTED_ID_PREFIX = 'redacted_';

/** What an id holding a secret is shown as: a client answering a call by it means that call. */
export const hashedId = (id: string): string => `${REDACTED_ID_PREFIX}${createHash('sha256').update(id).digest('hex').slice(0, 16)}`;

export function redactId(id: string, options?: RedactOptions): string {
  return redactText(id, options) === id ? id : hashedId(id);
}

/** The event with its top-level string `id` through redactId (the same object when nothing changes). */
export function withRedactedId<T extends object>(event: T, options?: RedactOptions): T {
  const id = (event as { id?: unknown }).id;
  if (typeof id !== 'string') return event;
  const redacted = redactId(id, options);
  return redacted === id ? event : { ...event, id: redacted };
}
