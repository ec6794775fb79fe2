import t from 'tap';
import { redactorAfter } from '../../../lib/redaction/redact-after.js';

const redactAfter = redactorAfter({}, (text) => text);

t.test('a piece redacted as it reads after the text released before it', async (t) => {
  t.equal(redactAfter('export DB_PASSWORD', '=correcthorsebattery42 ok'), '=[REDACTED] ok', 'the name is in the context');
  t.equal(redactAfter('', '=correcthorsebattery42 ok'), '=correcthorsebattery42 ok', 'without it, no secret');
});

t.test('a context whose escape the whole text decodes: the piece reads after it decoded', async (t) => {
  t.equal(redactAfter('\\u0073\tc', 'ookie=wAKCAQEA'), 'ookie=[REDACTED]');
});
