import t from 'tap';
import { createHash } from 'node:crypto';
import { REDACTED_ID_PREFIX, redactEventId, redactId } from '../../../lib/redaction/ids.js';

const key = 'sk-' + 'proj-' + 'Ab3dE6gH9j'.repeat(4);
const otherKey = 'sk-' + 'proj-' + 'Zy8xW7vU6t'.repeat(4);
const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;

t.test('an ordinary id is unchanged', async (t) => {
  for (const id of ['call_1', 'toolu_01ABCdef', 'call:abc.def-1']) t.equal(redactId(id), id);
});

t.test('an id holding a secret: redacted_ + 16 hex of its SHA-256', async (t) => {
  const id = `call_${key}`;
  const out = redactId(id);
  t.equal(REDACTED_ID_PREFIX, 'redacted_');
  t.match(out, /^redacted_[0-9a-f]{16}$/);
  t.match(out, ID_PATTERN, 'matches the output schema id pattern');
  t.equal(out, `redacted_${createHash('sha256').update(id).digest('hex').slice(0, 16)}`);
  t.notMatch(out, key.slice(8));
  t.equal(redactId(id), out, 'stable for the same id');
  t.not(redactId(`call_${otherKey}`), out, 'different for another id');
  t.match(redactId(`call_${otherKey}`), /^redacted_[0-9a-f]{16}$/);
});

t.test('a credential in use via options.secrets', async (t) => {
  const secret = 'plainvalue' + '42';
  const id = `call_${secret}`;
  t.equal(redactId(id), id, 'not a secret by itself');
  const out = redactId(id, { secrets: [secret] });
  t.match(out, /^redacted_[0-9a-f]{16}$/);
  t.equal(redactId(id, { secrets: [secret] }), out);
});

t.test('redactEventId', async (t) => {
  t.equal(redactEventId('id', 'call_1'), 'call_1', 'an ordinary id: itself');
  t.equal(redactEventId('id', `call_${key}`), redactId(`call_${key}`));
  t.match(redactEventId('id', `call_${key}`), /^redacted_[0-9a-f]{16}$/);
  const secret = 'plainvalue' + '42';
  t.equal(redactEventId('id', `r_${secret}`), `r_${secret}`);
  t.match(redactEventId('id', `r_${secret}`, { secrets: [secret] }), /^redacted_[0-9a-f]{16}$/, 'not kept for other options because it was kept without');
  t.equal(redactEventId('id', `r_${secret}`), `r_${secret}`);
});

t.test('redactEventId: a run or session id of another program holding a key stays a valid id, the same on every event', async (t) => {
  const runId = `ci-${key}`;
  const out = redactEventId('runId', runId);
  t.match(out, /^redacted_[0-9a-f]{16}$/);
  t.match(redactEventId('sessionId', `sess_${key}`), /^redacted_[0-9a-f]{16}$/);
  t.equal(redactEventId('runId', runId), out);
  t.equal(redactEventId('runId', 'ci-7f3a:job.12'), 'ci-7f3a:job.12', 'ids without a secret kept');
  t.equal(redactEventId('sessionId', 'sess_EnZUTZQgBMRI'), 'sess_EnZUTZQgBMRI');
  t.equal(redactEventId('runId', 'run_20261130053326_ab12cd'), 'run_20261130053326_ab12cd', "zero's own");
});
