import { decided } from '../logs/serialize.js';
import { isJsonObject } from '../protocol/json-object.js';
import type { Redactor } from './shown.js';

/**
 * What a transcript says of a tool call's permissions (docs/protocol.md §3.2, §12): not the text written for the
 * client (`Answer with a permission_response…`), but what was asked and what was decided.
 *
 * - `asked`: a permission_request the client was to answer (`permissionMode: "ask"`); its decision replaces it
 *   once the permission_decision comes (`allowed`, `denied`, `cancelled`), with the decision's reason. A request
 *   with no decision in the log stays `asked`.
 * - a permission_decision with no request before it: a tool allowed for the rest of the session (`allow_always`).
 * - `refused`: any other permission_request (the run's mode does not allow the tool, or the sandbox blocked the
 *   call: its `code`), which is its own decision: the denied result follows.
 */
export type PermissionNote = { decision: 'asked' | 'allowed' | 'denied' | 'cancelled' | 'refused' | string; asked: boolean; reason: string; code?: string };

/** A hand-made log may pile up permission events on one call: past this many, they are skipped. */
export const MAX_PERMISSION_NOTES = 8;

type Obj = Record<string, unknown>;
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The call's notes with this permission event added (redacted); undefined when there is no room left. */
export function notePermission(notes: PermissionNote[] = [], event: Obj, redact: Redactor): PermissionNote[] | undefined {
  if (event.type === 'permission_decision') {
    const waiting = notes.findIndex((note) => note.decision === 'asked');
    const note: PermissionNote = { decision: decided(str(event.action) ?? 'decided'), asked: waiting !== -1, reason: str(event.decisionReason) ?? '' };
    if (waiting !== -1) return notes.map((old, index) => (index === waiting ? redact.value(note) : old));
    return notes.length < MAX_PERMISSION_NOTES ? [...notes, redact.value(note)] : undefined;
  }
  if (notes.length >= MAX_PERMISSION_NOTES) return undefined;
  const code = isJsonObject(event.block) ? str(event.block.code) : undefined;
  const asked = event.permissionMode === 'ask' && code === undefined;
  const note: PermissionNote = { decision: asked ? 'asked' : 'refused', asked, reason: str(event.reason) ?? '', ...(code !== undefined ? { code } : {}) };
  return [...notes, redact.value(note)];
}

/** A note in words: its heading (`Permission asked, denied`) and what it says after it (the decision's reason). */
export function permissionWords(note: PermissionNote): { heading: string; reason: string } {
  if (note.decision === 'asked') return { heading: 'Permission asked, no answer in the log', reason: '' };
  if (note.decision === 'refused') return { heading: `Permission refused${note.code ? ` (${note.code})` : ''}`, reason: note.reason };
  return { heading: `Permission ${note.asked ? 'asked, ' : ''}${note.decision}`, reason: note.reason };
}
