import t from 'tap';
import { ESCAPE_KEYWORDS, decodeSecretEscapes, hasEscapeKeyword } from '../../../lib/redaction/escapes.js';

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

t.test('hasEscapeKeyword answers like a case-insensitive search for the escape keywords', async (t) => {
  const samples = ['plain', 'a\\u0041', 'a\\U0041', 'a\\X41', 'a\\x41', 'a\\\\n', '&#65;', '& #65', 'trailing\\', '\\n\\t'];
  for (const text of samples) {
    const lower = text.toLowerCase();
    t.equal(hasEscapeKeyword(text), ESCAPE_KEYWORDS.some((keyword) => lower.includes(keyword)), JSON.stringify(text));
  }
});
