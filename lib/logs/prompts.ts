import { checkVersioned } from '../protocol/schema-version.js';
import { isJsonObject } from '../protocol/json-object.js';

const INPUT_TYPES = new Set<unknown>(['prompt', 'message']);

/**
 * A value of a log that is an input event (docs/protocol.md §2) rather than an output event: in a session file
 * (§6), the prompt stored before each run. It belongs to no run, and stands between runs (§9).
 */
export function isStoredPrompt(value: unknown): value is Record<string, unknown> {
  return isJsonObject(value) && INPUT_TYPES.has(value.type);
}

/** A stored prompt that is a valid input event of its own schemaVersion. */
export function isValidStoredPrompt(value: unknown): boolean {
  return isStoredPrompt(value) && checkVersioned('input', value).ok;
}
