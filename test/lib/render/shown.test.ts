import t from 'tap';
import { createRedactor, cutToShown, SHOWN_CHARS } from '../../../lib/render/shown.js';

const key = 'sk-proj-' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4';

t.test('cutToShown: a text up to SHOWN_CHARS as it is; past it, cut, saying how much was left out', async (t) => {
  t.equal(cutToShown('short'), 'short');
  const long = 'x'.repeat(SHOWN_CHARS + 10);
  t.equal(cutToShown(long), `${'x'.repeat(SHOWN_CHARS)}\n… 10 more characters not shown`);
});

t.test('texts, ids and values are redacted', async (t) => {
  const redact = createRedactor({ secrets: ['zk7731Qm7TfRp2LxWc9V'] });
  t.equal(redact.text(`use ${key}`), 'use [REDACTED]');
  t.match(redact.id(`call_${key}`), /^redacted_[0-9a-f]{16}$/);
  t.same(redact.value({ apiKey: 'hunter2hunter2', note: 'zk7731Qm7TfRp2LxWc9V' }), { apiKey: '[REDACTED]', note: '[REDACTED]' });
});

t.test('pieces: joined, then redacted, so a secret split across them is caught; take starts afresh', async (t) => {
  const text = createRedactor().pieces();
  for (const piece of ['key ', key.slice(0, 9), key.slice(9)]) text.push(piece);
  t.equal(text.take(), 'key [REDACTED]');
  t.equal(text.take(), '');
  text.push('again');
  t.equal(text.take(), 'again');
});

t.test('pieces past SHOWN_CHARS: what is shown is kept, the rest counted, a split secret still caught', async (t) => {
  const text = createRedactor().pieces();
  const chunk = 'word '.repeat(1000);
  let pushed = 0;
  while (pushed < SHOWN_CHARS - 20) {
    text.push(chunk);
    pushed += chunk.length;
  }
  text.push(`key ${key.slice(0, 9)}`);
  text.push(key.slice(9));
  for (let i = 0; i < 100; i++) text.push(chunk);
  const shown = text.take();
  t.notMatch(shown, key.slice(0, 12));
  t.match(shown, /\n… \d+ more characters not shown$/);
  t.ok(shown.length < SHOWN_CHARS + 100, 'no more than SHOWN_CHARS of it');
});
