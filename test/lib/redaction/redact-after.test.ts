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

t.test('a window that redacts to itself costs one redaction: not the context again, not the same window twice', async (t) => {
  let looked = 0;
  const after = redactorAfter({}, (text) => {
    looked += text.length;
    return text;
  });
  const context = 'the token is read from the environment; ';
  t.equal(after(context, 'key: value'), 'key: value');
  t.equal(looked, context.length + 'key: value'.length, 'the context alone is not redacted');
  // a look that cuts what it holds, while the context is short: the rest after the context the cut leaves is the same text
  t.equal(after(`${context}key`, ': value'), ': value');
  t.equal(looked, context.length + 'key: value'.length, 'the same text is redacted once');
  t.equal(after(context, 'password=hunter2hunter2 ok'), 'password=[REDACTED] ok', 'a window with a secret: as before');
});
