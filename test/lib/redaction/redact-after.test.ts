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

t.test('a credential begun in the context (its first character let go at a word\'s end): the rest of it is redacted, however short', async (t) => {
  const secrets = ['0VfEyG73N0HtNK3KZAhI6'];
  const after = redactorAfter({ secrets }, (text) => text);
  t.equal(after('XU.K', '3KZAhI6k and more'), '[REDACTED]k and more', 'its 7 characters after the context are no piece alone');
  t.equal(after('XU.', 'word and more'), 'word and more', 'a piece with no secret goes as it came');
});
