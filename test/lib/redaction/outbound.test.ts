import t from 'tap';
import { REDACTED } from '../../../lib/redaction/rule.js';
import { redactOutbound } from '../../../lib/redaction/outbound.js';

const key = 'sk-' + 'proj-' + 'Ab3dE6gH9j'.repeat(4);

t.test('a string is redacted as text', async (t) => {
  t.equal(redactOutbound(`using ${key} now`), `using ${REDACTED} now`);
  t.equal(redactOutbound('nothing secret here'), 'nothing secret here');
  t.equal(redactOutbound(''), '');
});

t.test('an object: every string redacted, sensitive keys replaced, input unchanged', async (t) => {
  const input = {
    provider: 'openai',
    note: `key was ${key}`,
    config: { apiKey: 'plain-looking-value', model: 'gpt' },
    list: ['fine', `Bearer-less ${key}`],
    count: 3,
  };
  const snapshot = JSON.stringify(input);
  const out = redactOutbound(input);
  t.same(out, {
    provider: 'openai',
    note: `key was ${REDACTED}`,
    config: { apiKey: REDACTED, model: 'gpt' },
    list: ['fine', `Bearer-less ${REDACTED}`],
    count: 3,
  });
  t.not(out, input, 'a copy');
  t.equal(JSON.stringify(input), snapshot, 'input not mutated');
  t.notMatch(JSON.stringify(out), key.slice(8));
});

t.test('scalars and arrays', async (t) => {
  t.equal(redactOutbound(42), 42);
  t.equal(redactOutbound(null), null);
  t.same(redactOutbound([key, 1]), [REDACTED, 1]);
});

t.test('options.secrets reach both paths', async (t) => {
  const secret = 'plainvalue' + '42';
  t.equal(redactOutbound(`loaded ${secret}`, { secrets: [secret] }), `loaded ${REDACTED}`);
  t.same(redactOutbound({ msg: `loaded ${secret}` }, { secrets: [secret] }), { msg: `loaded ${REDACTED}` });
  t.equal(redactOutbound(`loaded ${secret}`), `loaded ${secret}`, 'not a secret without the option');
});
