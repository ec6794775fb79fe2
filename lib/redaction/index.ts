/** Redaction (docs/protocol.md §4): what every output passes through before it is written. */

export { REDACTED, type TextRule } from './rule.js';
export { isSensitiveKey, isSensitiveQueryParam, normaliseKey } from './keys.js';
export { redactText, mayContainSecret, TEXT_RULES, MIN_SECRET_LENGTH, type RedactOptions } from './text.js';
export { redactValue, redactEvent } from './value.js';
export { redactId } from './ids.js';
export { redactOutbound } from './outbound.js';
