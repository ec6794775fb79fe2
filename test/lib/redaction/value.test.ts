import t from 'tap';
import { REDACTED } from '../../../lib/redaction/rule.js';
import { redactId } from '../../../lib/redaction/ids.js';
import { redactEvent, redactValue } from '../../../lib/redaction/value.js';

const key = 'sk-' + 'proj-' + 'Q'.repeat(40);

t.test('redactValue: nested objects and arrays', async (t) => {
  const input = {
    provider: 'openai',
    config: { apiKey: 'anything at all', headers: { Authorization: 'Bearer x', Accept: 'json' } },
    list: [`token ${key}`, { password: 12345678, note: 'ok' }, [{ client_secret: { nested: true } }]],
    usage: { promptTokens: 12, max_tokens: 4096, token_count: 3 },
    empty: { token: null, secret: '', password: false, apiKey: undefined },
  };
  const snapshot = JSON.stringify(input);
  const out = redactValue(input);
  t.same(out, {
    provider: 'openai',
    config: { apiKey: REDACTED, headers: { Authorization: REDACTED, Accept: 'json' } },
    list: [`token ${REDACTED}`, { password: REDACTED, note: 'ok' }, [{ client_secret: REDACTED }]],
    usage: { promptTokens: 12, max_tokens: 4096, token_count: 3 },
    empty: { token: null, secret: '', password: false, apiKey: undefined },
  });
  t.equal(JSON.stringify(input), snapshot, 'input not mutated');
});

t.test('redactValue always deep-copies', async (t) => {
  const input = { a: { b: ['c'] } };
  const out = redactValue(input);
  t.same(out, input);
  t.not(out, input);
  t.not(out.a, input.a);
  t.not(out.a.b, input.a.b);
});

t.test('redactValue on scalars and special values', async (t) => {
  t.equal(redactValue(`x ${key}`), `x ${REDACTED}`);
  t.equal(redactValue(42), 42);
  t.equal(redactValue(null), null);
  t.equal(redactValue(true), true);
  t.equal(redactValue(new Date(0)), '1970-01-01T00:00:00.000Z', 'toJSON like JSON.stringify');
  const cyclic: Record<string, unknown> = { name: 'loop' };
  cyclic.self = cyclic;
  t.same(redactValue(cyclic), { name: 'loop', self: '[Circular]' });
  const shared = { v: 1 };
  t.same(redactValue({ a: shared, b: shared }), { a: { v: 1 }, b: { v: 1 } }, 'shared, not cyclic');
});

t.test('redactValue passes secrets through', async (t) => {
  t.same(redactValue({ msg: 'loaded plainvalue42' }, { secrets: ['plainvalue42'] }), { msg: `loaded ${REDACTED}` });
});

t.test('redactEvent: text, tool_call, run_start, usage', async (t) => {
  t.same(redactEvent({ type: 'text', delta: `use ${key}` }), { type: 'text', delta: `use ${REDACTED}` });
  const call = {
    type: 'tool_call', id: 'call_1', name: 'shell',
    args: { command: `curl -H "Authorization: Bearer ${'abc123'.repeat(4)}" https://x.test`, env: { GITHUB_TOKEN: 'x' } },
  };
  t.same(redactEvent(call), {
    type: 'tool_call', id: 'call_1', name: 'shell',
    args: { command: `curl -H "Authorization: Bearer ${REDACTED}" https://x.test`, env: { GITHUB_TOKEN: REDACTED } },
  });
  t.equal(call.args.env.GITHUB_TOKEN, 'x', 'input not mutated');
  const start = { schemaVersion: 1, type: 'run_start', runId: 'run_20261130053326_ab12cd', sessionId: 'zero_20261130053326_ab12cd', cwd: '/home/me/secret-project', provider: 'openai', model: 'gpt' };
  t.equal(redactEvent(start), start, 'nothing to redact: the same object');
  const usage = { type: 'usage', promptTokens: 12, completionTokens: 3, totalTokens: 15 };
  t.equal(redactEvent(usage), usage);
});

t.test('redactEvent never touches structural top-level keys (a model-supplied id is redacted as an id)', async (t) => {
  const loaded = 'run_20261130053326_ab12cd';
  const session = 'zero_20261130053326_ab12cd';
  const event = { type: 'text', runId: loaded, id: loaded, sessionId: session, schemaVersion: 1, delta: `${loaded} ${session}` };
  const redacted = redactEvent(event, { secrets: [loaded, session] });
  t.same(redacted, { ...event, delta: `${REDACTED} ${REDACTED}`, id: redacted.id });
  t.match(redacted.id, /^redacted_[0-9a-f]{16}$/);
  const nested = { type: 'tool_call', id: 'c', name: 'n', args: { id: loaded } };
  t.same(redactEvent(nested, { secrets: [loaded] }).args, { id: REDACTED }, 'only at the top level');
});

t.test('redactEvent reuses unchanged branches', async (t) => {
  const args = { path: 'a.ts', meta: { lines: [1, 2] } };
  const event = { type: 'tool_call', id: 'c', name: 'read', args, note: `k ${key}` };
  const out = redactEvent(event);
  t.not(out, event);
  t.equal(out.args, args);
  t.equal(out.note, `k ${REDACTED}`);
});

t.test('a __proto__ key from JSON.parse stays a plain property', async (t) => {
  const input = JSON.parse(`{"__proto__": {"x": 1}, "token": "abc12345678", "note": "n"}`) as Record<string, unknown>;
  const copy = redactValue(input);
  t.equal(JSON.stringify(copy), '{"__proto__":{"x":1},"token":"[REDACTED]","note":"n"}');
  t.equal(Object.getPrototypeOf(copy), Object.prototype);
  t.equal(JSON.stringify(redactEvent(input)), '{"__proto__":{"x":1},"token":"[REDACTED]","note":"n"}');
});

// The walk recurses once per level: 5000 levels overflowed the stack ("Maximum call stack size exceeded").
t.test('a container nested more than 256 levels down becomes "[Too deep]" instead of overflowing the stack', async (t) => {
  const deep = JSON.parse(`{"token":"${key}","a":${'['.repeat(5000)}"${key}"${']'.repeat(5000)}}`);
  for (const redact of [redactValue, redactEvent]) {
    const out = redact(deep) as { token: string; a: unknown };
    t.equal(out.token, REDACTED);
    let node: unknown = out.a;
    let level = 1;
    while (Array.isArray(node)) {
      node = node[0];
      level++;
    }
    t.equal(node, '[Too deep]');
    t.equal(level, 256, 'levels 1 to 255 below the top are kept, the next is replaced');
  }
  const shallow = JSON.parse(`{"a":${'['.repeat(255)}"${key}"${']'.repeat(255)}}`);
  t.notMatch(JSON.stringify(redactValue(shallow)), /Too deep/, '256 levels in all are walked as usual');
  t.notMatch(JSON.stringify(redactValue(shallow)), key.slice(3));
});

t.test('redactEvent: a tool call id holding a secret becomes a valid, stable redacted_<hash> id', async (t) => {
  const id = 'call_ghp_Q7xL1spNxnyVmihA2O76UMFxFkMR5Kjp1vRt';
  const call = redactEvent({ type: 'tool_call', id, name: 'bash', args: {} });
  const result = redactEvent({ type: 'tool_result', id, status: 'ok', output: '', truncated: false });
  t.match(call.id, /^redacted_[0-9a-f]{16}$/);
  t.match(call.id, /^[A-Za-z0-9][A-Za-z0-9._:-]*$/, 'matches the output schema');
  t.equal(result.id, call.id, 'the call and its result still pair up');
  t.not(redactEvent({ type: 'tool_call', id: 'call_ghp_Zz9xL1spNxnyVmihA2O76UMFxFkMR5Kjp1vRt', name: 'bash', args: {} }).id, call.id, 'another id, another hash');
  t.equal(redactEvent({ type: 'tool_call', id: 'id_zk4821Qm7TfRp2LxWc9V', name: 'bash', args: {} }, { secrets: ['zk4821Qm7TfRp2LxWc9V'] }).id.slice(0, 9), 'redacted_', 'a credential in use too');
  const plain = { type: 'tool_call', id: 'call_0001', name: 'bash', args: {} };
  t.equal(redactEvent(plain), plain, 'an ordinary id: the same event');
});

// A key is model-supplied text too: `{"sk-…": 1}` in tool arguments reached stdout and the session verbatim.
t.test('a secret in an object key is redacted, in redactValue and redactEvent', async (t) => {
  const call = { type: 'tool_call', id: 'c1', name: 'read_file', args: { [key]: 1, path: 'a.ts', nested: [{ [`x_${key}`]: 'v' }] } };
  for (const redact of [redactValue, redactEvent]) {
    const out = redact(call);
    t.notMatch(JSON.stringify(out), key.slice(3, 20));
    t.same(out.args, { [REDACTED]: 1, path: 'a.ts', nested: [{ [`x_${REDACTED}`]: 'v' }] });
  }
  const clean = { type: 'tool_call', id: 'c1', name: 'read_file', args: { path: 'a.ts' } };
  t.equal(redactEvent(clean), clean, 'clean keys: the same object');
});

// `zero redact` of a hand-edited log printed `"runId": "run_AKIA…"` and `"type": "bogus_sk-…"` as they were.
t.test('structural top-level fields without their protocol shape are content, and redacted; ids holding a key become valid ids', async (t) => {
  const event = { schemaVersion: key, type: `bogus_${key}`, runId: `run_${key}`, sessionId: `zero_${key}`, delta: 'x' };
  t.same(redactEvent(event), { schemaVersion: REDACTED, type: `bogus_${REDACTED}`, runId: redactId(`run_${key}`), sessionId: redactId(`zero_${key}`), delta: 'x' });
});

t.test('an object with inherited enumerable keys: its own keys are redacted and written, the inherited ones are not', async (t) => {
  const inherited = Object.create({ note: `inherited ${key}` }) as Record<string, unknown>;
  inherited.type = 'tool_result';
  inherited.output = 'clean';
  const clean = redactEvent(inherited);
  t.equal(JSON.stringify(clean), '{"type":"tool_result","output":"clean"}', 'a change only under an inherited key adds nothing');
  inherited.output = `leaked ${key}`;
  t.same(JSON.parse(JSON.stringify(redactEvent(inherited))), { type: 'tool_result', output: `leaked ${REDACTED}` });
});
