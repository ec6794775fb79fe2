import t from 'tap';
import { decodeSecretEscapes } from '../../../lib/redaction/escapes.js';

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

