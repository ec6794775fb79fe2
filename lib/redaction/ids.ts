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

/** An event's id field; the last id of it kept, and the options it was checked with: every event of a run repeats its runId. */
class IdField {
  private lastId: string | undefined;
  private lastOptions: RedactOptions | undefined;

  /** `own`: the form of zero's own ids, which no secret fits (kept as they are). */
  constructor(private readonly own?: RegExp) {}

  redact(id: string, options: RedactOptions | undefined): string {
    if (id === this.lastId && options === this.lastOptions) return id;
    const redacted = this.own?.test(id) ? id : redactId(id, options);
    if (redacted !== id) return redacted;
    this.lastId = id;
    this.lastOptions = options;
    return id;
  }
}

const [callIds, runIds, sessionIds] = [new IdField(), new IdField(RUN_ID_PATTERN), new IdField(SESSION_ID_PATTERN)];

/** An event's top-level string id (`id`, `runId`, `sessionId`: `key`) through redactId; the id itself when it holds no secret. */
export function redactEventId(key: 'id' | 'runId' | 'sessionId', id: string, options?: RedactOptions): string {
  return (key === 'runId' ? runIds : key === 'id' ? callIds : sessionIds).redact(id, options);
}
