import t from 'tap';
import { decodeSecretEscapes, widenMarkersOverEscapes } from '../../../lib/redaction/escapes.js';
import { REDACTED } from '../../../lib/redaction/rule.js';

t.test('escapes of secret characters are decoded: JSON \\u, \\x, HTML entities in hex and decimal', async (t) => {
  t.equal(decodeSecretEscapes('\\u0073k-proj'), 'sk-proj');
  t.equal(decodeSecretEscapes('\\x73k\\x2dx'), 'sk-x');
  t.equal(decodeSecretEscapes('&#x73;&#107;&#45;'), 'sk-');
  t.equal(decodeSecretEscapes('\\U0073'), '\\U0073', 'only the lowercase \\u escape is JSON');
});

t.test('escapes of other characters stay as they were, so JSON and HTML keep their structure', async (t) => {
  for (const text of ['\\u0022', '\\u005c', '&#60;script&#62;', '\\x27', '\\u00e9', '&#x1F600;', '\\n']) {
    t.equal(decodeSecretEscapes(text), text, text);
  }
  t.equal(decodeSecretEscapes('no escapes here'), 'no escapes here');
});


t.test('widenMarkersOverEscapes: a marker an escaped secret character follows takes the run it starts', async (t) => {
  const widen = (text: string) => widenMarkersOverEscapes(text, REDACTED);
  t.equal(widen(`${REDACTED}\\u0061bc&#x64;e9 next`), `${REDACTED} next`, 'the rest of a token cut where an escape hid its next character');
  t.equal(widen(`${REDACTED}\\x61, ${REDACTED}&#98;-c`), `${REDACTED}, ${REDACTED}`, 'each marker');
  for (const text of [`key=${REDACTED} abc`, `${REDACTED}abc\\u0061`, `${REDACTED}\\u0022abc`, `\\u0061${REDACTED}`, `\\u0061bc`]) {
    t.equal(widen(text), text, `nothing to widen: ${text}`);
  }
});
