/**
 * The single entry point for everything zero prints or stores outside the
 * event stream: session metadata, `zero sessions list`, the --debug log,
 * `zero render`, `zero stats` and `zero validate` reports. (Events pass the
 * redact stage, transforms/redact.ts, which applies the same engine.) A
 * string is redacted as text; a JSON value as a whole, with every string
 * redacted and anything under a sensitive key replaced.
 */

import { redactText, type RedactOptions } from './text.js';
import { redactValue } from './value.js';

export function redactOutbound<T>(value: T, options?: RedactOptions): T {
  return (typeof value === 'string' ? redactText(value, options) : redactValue(value, options)) as T;
}
