import fc from '../../helpers/property.js';
import t from 'tap';
import { toLegacyJson } from '../../../lib/output/json.js';
import { TextSpool } from '../../../lib/files/text-spool.js';
import type { Event, OutputEvent, Stamped } from '../../../lib/protocol/types.js';

const runId = 'run_20261130053326_ab12cd';
const stamped = <E extends Event>(event: E): Stamped<E> => ({ schemaVersion: 1, runId, ...event });

t.test('run_start: snake_case fields and the run id', async (t) => {
  t.same(
    toLegacyJson(stamped({ type: 'run_start', sessionId: 'zero_20261130053326_zz99aa', cwd: '/repo', provider: 'openai', model: 'gpt', apiModel: 'gpt-2026' })),
    { type: 'run_start', run_id: runId, session_id: 'zero_20261130053326_zz99aa', cwd: '/repo', provider: 'openai', model: 'gpt', api_model: 'gpt-2026' },
  );
});

t.test('run_start: absent optional fields are left out, not null', async (t) => {
  const legacy = toLegacyJson(stamped({ type: 'run_start', cwd: '/repo', provider: 'scripted', model: 'demo' }));
  t.same(legacy, { type: 'run_start', run_id: runId, cwd: '/repo', provider: 'scripted', model: 'demo' });
  t.notOk('session_id' in legacy);
  t.notOk('api_model' in legacy);
});

t.test('text: {delta}', async (t) => {
  t.same(toLegacyJson(stamped({ type: 'text', delta: 'Hello\n' })), { type: 'text', delta: 'Hello\n' });
});

t.test('tool_call: {id, name, arguments} with the arguments as a JSON string', async (t) => {
  const args = { path: 'src/a.ts', limit: 10, nested: { deep: [1, 'two'] } };
  const legacy = toLegacyJson(stamped({ type: 'tool_call', id: 'call_1', name: 'read_file', args }));
  t.same(legacy, { type: 'tool_call', id: 'call_1', name: 'read_file', arguments: '{"path":"src/a.ts","limit":10,"nested":{"deep":[1,"two"]}}' });
  t.type(legacy.arguments, 'string');
  t.same(JSON.parse(legacy.arguments as string), args);
});

t.test('tool_call: without parsed args the arguments are "{}"', async (t) => {
  t.same(toLegacyJson(stamped({ type: 'tool_call', id: 'call_2', name: 'glob' })), { type: 'tool_call', id: 'call_2', name: 'glob', arguments: '{}' });
});

t.test('tool_call: the side effect is side_effect', async (t) => {
  t.same(toLegacyJson(stamped({ type: 'tool_call', id: 'c', name: 'grep', args: {}, sideEffect: 'read' })), {
    type: 'tool_call',
    id: 'c',
    name: 'grep',
    arguments: '{}',
    side_effect: 'read',
  });
});

t.test('tool_result: {tool_call_id, result} plus is_error and truncated', async (t) => {
  t.same(toLegacyJson(stamped({ type: 'tool_result', id: 'call_1', status: 'ok', output: 'file body', truncated: false })), {
    type: 'tool_result',
    tool_call_id: 'call_1',
    result: 'file body',
    is_error: false,
    truncated: false,
  });
  t.same(toLegacyJson(stamped({ type: 'tool_result', id: 'call_1', status: 'error', output: 'No such file', truncated: true })), {
    type: 'tool_result',
    tool_call_id: 'call_1',
    result: 'No such file',
    is_error: true,
    truncated: true,
  });
});

t.test('usage: {prompt_tokens, completion_tokens, total_tokens}, cost_usd when known', async (t) => {
  t.same(toLegacyJson(stamped({ type: 'usage', promptTokens: 10, completionTokens: 5, totalTokens: 15 })), {
    type: 'usage',
    prompt_tokens: 10,
    completion_tokens: 5,
    total_tokens: 15,
  });
  t.same(toLegacyJson(stamped({ type: 'usage', promptTokens: 0, costUsd: 0.25 })), { type: 'usage', prompt_tokens: 0, cost_usd: 0.25 });
  t.same(toLegacyJson(stamped({ type: 'usage' })), { type: 'usage' });
});

t.test('warning: {message}', async (t) => {
  t.same(toLegacyJson(stamped({ type: 'warning', message: 'Careful.' })), { type: 'warning', message: 'Careful.' });
});

t.test('final: {text}', async (t) => {
  t.same(toLegacyJson(stamped({ type: 'final', text: 'Done.' })), { type: 'final', text: 'Done.' });
  t.same(toLegacyJson(stamped({ type: 'final', text: '' })), { type: 'final', text: '' });
});

t.test('error: {code, message}', async (t) => {
  t.same(toLegacyJson(stamped({ type: 'error', code: 'provider_error', message: '401 Unauthorized', recoverable: false })), {
    type: 'error',
    code: 'provider_error',
    message: '401 Unauthorized',
  });
});

t.test('run_end becomes done {exit_code}', async (t) => {
  t.same(toLegacyJson(stamped({ type: 'run_end', status: 'success', exitCode: 0 })), { type: 'done', exit_code: 0 });
  t.same(toLegacyJson(stamped({ type: 'run_end', status: 'error', exitCode: 130 })), { type: 'done', exit_code: 130 });
});

const anyEvent: fc.Arbitrary<OutputEvent> = fc
  .oneof(
    fc.record(
      { type: fc.constant('run_start' as const), sessionId: fc.constant('zero_20261130053326_zz99aa'), cwd: fc.string(), provider: fc.string(), model: fc.string(), apiModel: fc.string() },
      { requiredKeys: ['type', 'cwd', 'provider', 'model'] },
    ),
    fc.record({ type: fc.constant('text' as const), delta: fc.string({ minLength: 1 }) }),
    fc.record(
      { type: fc.constant('tool_call' as const), id: fc.constant('call_1'), name: fc.string(), args: fc.dictionary(fc.string(), fc.jsonValue()), sideEffect: fc.constantFrom('read' as const, 'write' as const, 'shell' as const, 'network' as const, 'unknown' as const) },
      { requiredKeys: ['type', 'id', 'name'] },
    ),
    fc.record({ type: fc.constant('tool_result' as const), id: fc.constant('call_1'), status: fc.constantFrom('ok' as const, 'error' as const), output: fc.string(), truncated: fc.boolean() }),
    fc.record(
      { type: fc.constant('usage' as const), promptTokens: fc.nat(), completionTokens: fc.nat(), totalTokens: fc.nat(), costUsd: fc.double({ min: 0, noNaN: true, noDefaultInfinity: true }) },
      { requiredKeys: ['type'] },
    ),
    fc.record({ type: fc.constant('final' as const), text: fc.string() }),
    fc.record({ type: fc.constant('warning' as const), message: fc.string({ minLength: 1 }) }),
    fc.record({ type: fc.constant('error' as const), code: fc.string({ minLength: 1 }), message: fc.string({ minLength: 1 }), recoverable: fc.boolean() }),
    fc.record({ type: fc.constant('run_end' as const), status: fc.constantFrom('success' as const, 'error' as const), exitCode: fc.nat(255) }),
  )
  .map((event) => stamped(event as Event));

t.test('property: every legacy event has snake_case keys, no camelCase, no undefined, and survives JSON', async (t) => {
  fc.assert(
    fc.property(anyEvent, (event) => {
      const before = structuredClone(event);
      const legacy = toLegacyJson(event);
      const keysOk = Object.keys(legacy).every((key) => /^[a-z]+(_[a-z]+)*$/.test(key));
      const noUndefined = Object.values(legacy).every((value) => value !== undefined);
      const roundTrips = JSON.stringify(JSON.parse(JSON.stringify(legacy))) === JSON.stringify(legacy);
      const typeOk = legacy.type === (event.type === 'run_end' ? 'done' : event.type);
      const unchanged = JSON.stringify(event) === JSON.stringify(before);
      return keysOk && noUndefined && roundTrips && typeOk && unchanged && !('schemaVersion' in legacy) && !('runId' in legacy);
    }),
  );
  t.pass('property held');
});

t.test('turn_start and turn_end (--multi-turn): lines of their own, the run id left to run_start', async (t) => {
  t.same(toLegacyJson(stamped({ type: 'turn_start', turn: 2, content: 'And the tests?' })), { type: 'turn_start', turn: 2, content: 'And the tests?' });
  t.same(toLegacyJson(stamped({ type: 'turn_end', turn: 2, status: 'interrupted' })), { type: 'turn_end', turn: 2, status: 'interrupted' });
});

t.test('a spooled final keeps its spool in the json format (its line writes the text from it)', async (t) => {
  const spool = new TextSpool(4);
  spool.write('a long answer');
  t.same(toLegacyJson(stamped({ type: 'final', text: '', spool })), { type: 'final', text: '', spool });
  t.same(toLegacyJson(stamped({ type: 'final', text: 'short' })), { type: 'final', text: 'short' });
});
