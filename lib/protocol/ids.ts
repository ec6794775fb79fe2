import { createHash, randomInt } from 'node:crypto';

export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;
export const RUN_ID_PATTERN = /^run_\d{14}_[0-9a-z]{6}$/;
export const SESSION_ID_PATTERN = /^zero_\d{14}_[0-9a-z]{6}$/;

function utcStamp(date: Date): string {
  return date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

function base36(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += randomInt(36).toString(36);
  return out;
}

/** `run_<UTC yyyymmddHHMMSS>_<6 base36>` */
export function newRunId(date = new Date()): string {
  return `run_${utcStamp(date)}_${base36(6)}`;
}

/** `zero_<UTC yyyymmddHHMMSS>_<6 base36>` */
export function newSessionId(date = new Date()): string {
  return `zero_${utcStamp(date)}_${base36(6)}`;
}

export function isId(value: string): boolean {
  return value.length <= 128 && ID_PATTERN.test(value);
}

/**
 * A tool call id a provider sent, as the output schema takes it: itself when it is an id; else (`a b`, `a/../b`, 300
 * characters, empty) `call_`, 16 hex digits of its SHA-256 and its place in the turn, so calls stay apart.
 */
export function validCallId(id: string, place: number): string {
  return isId(id) ? id : `call_${createHash('sha256').update(id).digest('hex').slice(0, 16)}_${place}`;
}
