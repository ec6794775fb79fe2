import t from 'tap';
import { createHash } from 'node:crypto';
import { REDACTED_ID_PREFIX, redactId, withRedactedIds } from '../../../lib/redaction/ids.js';

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

t.test('withRedactedIds', async (t) => {
  const plain = { type: 'tool_call', id: 'call_1', name: 'shell' };
  t.equal(withRedactedIds(plain), plain, 'nothing changes: the same object');

  const leaky = { type: 'tool_call', id: `call_${key}`, name: 'shell', args: { a: 1 } };
  const snapshot = JSON.stringify(leaky);
  const out = withRedactedIds(leaky);
  t.not(out, leaky, 'a copy');
  t.same(out, { ...leaky, id: redactId(leaky.id) });
  t.match(out.id, /^redacted_[0-9a-f]{16}$/);
  t.equal(out.args, leaky.args, 'shallow copy: other fields kept as they are');
  t.equal(JSON.stringify(leaky), snapshot, 'input not mutated');

  const secret = 'plainvalue' + '42';
  const withSecret = { type: 'tool_result', id: `r_${secret}` };
  t.equal(withRedactedIds(withSecret), withSecret);
  t.match(withRedactedIds(withSecret, { secrets: [secret] }).id, /^redacted_[0-9a-f]{16}$/);

  for (const event of [{ type: 'text', delta: key }, { type: 'x', id: 42 }, { type: 'x', id: null }, { type: 'x', id: { inner: key } }]) {
    t.equal(withRedactedIds(event), event, `left alone: ${JSON.stringify(event.type)} without a string id`);
  }
});

t.test('withRedactedIds: a run or session id of another program holding a key stays a valid id, the same on every event', async (t) => {
  const start = { type: 'run_start', runId: `ci-${key}`, sessionId: `sess_${key}`, cwd: '/' };
  const out = withRedactedIds(start);
  t.match(out, { runId: /^redacted_[0-9a-f]{16}$/, sessionId: /^redacted_[0-9a-f]{16}$/, cwd: '/' });
  t.equal(withRedactedIds({ type: 'text', runId: start.runId }).runId, out.runId);
  const foreign = { type: 'run_start', runId: 'ci-7f3a:job.12', sessionId: 'sess_EnZUTZQgBMRI' };
  t.equal(withRedactedIds(foreign), foreign, 'ids without a secret kept');
});
