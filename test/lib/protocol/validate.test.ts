import t from 'tap';
import { UsageError } from '../../../lib/errors.js';
import { loadSchema } from '../../../lib/protocol/schemas.js';
import { checkAgainstSchema, compileChecker, validateParsed } from '../../../lib/protocol/validate.js';

const runId = 'run_20261130053326_ab12cd';
const head = { schemaVersion: 1, runId };

/** Every output event type of PROTOCOL §3, in a minimal form (required fields only) and a full one. */
const outputEvents: Record<string, { minimal: Record<string, unknown>; full: Record<string, unknown> }> = {
  run_start: {
    minimal: { ...head, type: 'run_start', cwd: '/repo', provider: 'scripted', model: 'demo' },
    full: { ...head, type: 'run_start', sessionId: 'zero_20261130053326_zz99aa', cwd: '/repo', provider: 'openai', model: 'gpt', apiModel: 'gpt-2026-01-01' },
  },
  text: {
    minimal: { ...head, type: 'text', delta: 'x' },
    full: { ...head, type: 'text', delta: 'Hello,\nworld — ünïcode 😀' },
  },
  tool_call: {
    minimal: { ...head, type: 'tool_call', id: 'call_1', name: 'read_file' },
    full: { ...head, type: 'tool_call', id: 'toolu_01.a:b-c', name: 'grep', args: { pattern: 'TODO', paths: ['lib'], options: { ignoreCase: true } }, sideEffect: 'read' },
  },
  tool_result: {
    minimal: { ...head, type: 'tool_result', id: 'call_1', status: 'ok', output: '', truncated: false },
    full: { ...head, type: 'tool_result', id: 'call_1', status: 'error', output: 'No such file: x', truncated: true },
  },
  usage: {
    minimal: { ...head, type: 'usage' },
    full: { ...head, type: 'usage', promptTokens: 120, completionTokens: 30, totalTokens: 150, costUsd: 0.0012 },
  },
  final: {
    minimal: { ...head, type: 'final', text: '' },
    full: { ...head, type: 'final', text: 'No blockers found.' },
  },
  warning: {
    minimal: { ...head, type: 'warning', message: 'w' },
    full: { ...head, type: 'warning', message: 'Ignoring unknown setting "colour".' },
  },
  error: {
    minimal: { ...head, type: 'error', code: 'crash', message: 'm', recoverable: false },
    full: { ...head, type: 'error', code: 'max_turns', message: 'Reached the turn limit (8).', recoverable: true },
  },
  run_end: {
    minimal: { ...head, type: 'run_end', status: 'success', exitCode: 0 },
    full: { ...head, type: 'run_end', status: 'error', exitCode: 130 },
  },
};

for (const [type, { minimal, full }] of Object.entries(outputEvents)) {
  t.test(`output ${type}: the minimal and the full form are accepted`, async (t) => {
    t.same(checkAgainstSchema('output', minimal), { ok: true, value: minimal });
    t.same(checkAgainstSchema('output', full), { ok: true, value: full });
  });

  t.test(`output ${type}: a stray field is rejected by name`, async (t) => {
    t.same(checkAgainstSchema('output', { ...minimal, extra: 1 }), { ok: false, field: 'extra', problem: 'Unrecognized key: "extra"' });
    t.same(checkAgainstSchema('output', { ...full, extra: null }), { ok: false, field: 'extra', problem: 'Unrecognized key: "extra"' });
  });

  t.test(`output ${type}: runId and schemaVersion are required`, async (t) => {
    const { runId: _runId, ...noRunId } = minimal;
    t.same(checkAgainstSchema('output', noRunId), { ok: false, field: 'runId', problem: 'Required field is missing' });
    const { schemaVersion: _version, ...noVersion } = minimal;
    t.same(checkAgainstSchema('output', noVersion), { ok: false, field: 'schemaVersion', problem: 'Required field is missing' });
    t.same(checkAgainstSchema('output', { ...minimal, schemaVersion: 2 }), { ok: false, field: 'schemaVersion', problem: 'Expected 1, received 2' });
  });
}

t.test('output: a field of another event type is a stray field too', async (t) => {
  t.same(checkAgainstSchema('output', { ...outputEvents.final!.minimal, delta: 'x' }), { ok: false, field: 'delta', problem: 'Unrecognized key: "delta"' });
  t.same(checkAgainstSchema('output', { ...outputEvents.tool_result!.minimal, name: 'grep' }), { ok: false, field: 'name', problem: 'Unrecognized key: "name"' });
  t.same(checkAgainstSchema('output', { ...outputEvents.run_end!.minimal, code: 'crash' }), { ok: false, field: 'code', problem: 'Unrecognized key: "code"' });
});

t.test('output: each required field of each type is named when missing', async (t) => {
  const required: Record<string, string[]> = {
    run_start: ['cwd', 'provider', 'model'],
    text: ['delta'],
    tool_call: ['id', 'name'],
    tool_result: ['id', 'status', 'output', 'truncated'],
    final: ['text'],
    warning: ['message'],
    error: ['code', 'message', 'recoverable'],
    run_end: ['status', 'exitCode'],
  };
  for (const [type, fields] of Object.entries(required)) {
    for (const field of fields) {
      const event = { ...outputEvents[type]!.minimal };
      delete event[field];
      t.same(checkAgainstSchema('output', event), { ok: false, field, problem: 'Required field is missing' }, `${type} without ${field}`);
    }
  }
});

t.test('output: the type must be a known string', async (t) => {
  t.same(checkAgainstSchema('output', { ...head, type: 'progress' }), { ok: false, field: 'type', problem: 'Unknown type "progress"' });
  t.same(checkAgainstSchema('output', { ...head, type: 7 }), { ok: false, field: 'type', problem: 'Expected string, received number' });
  t.same(checkAgainstSchema('output', { ...head }), { ok: false, field: 'type', problem: 'Required field is missing' });
});

t.test('output: wrong values are rejected, naming the field', async (t) => {
  const cases: [string, Record<string, unknown>, string, string | RegExp][] = [
    ['an empty text delta', { ...outputEvents.text!.minimal, delta: '' }, 'delta', 'Must not be empty'],
    ['an empty warning', { ...outputEvents.warning!.minimal, message: '' }, 'message', 'Must not be empty'],
    ['an empty error message', { ...outputEvents.error!.minimal, message: '' }, 'message', 'Must not be empty'],
    ['a non-boolean recoverable', { ...outputEvents.error!.minimal, recoverable: 'yes' }, 'recoverable', 'Expected boolean, received string'],
    ['an unknown tool status', { ...outputEvents.tool_result!.minimal, status: 'failed' }, 'status', 'Expected one of "ok", "error", received "failed"'],
    ['an unknown run status', { ...outputEvents.run_end!.minimal, status: 'done' }, 'status', 'Expected one of "success", "error", received "done"'],
    ['an unknown side effect', { ...outputEvents.tool_call!.minimal, sideEffect: 'fs' }, 'sideEffect', 'Expected one of "read", "write", "shell", "network", "unknown", received "fs"'],
    ['args that are not an object', { ...outputEvents.tool_call!.minimal, args: ['a'] }, 'args', 'Expected object, received array'],
    ['a truncated flag that is not boolean', { ...outputEvents.tool_result!.minimal, truncated: 0 }, 'truncated', 'Expected boolean, received number'],
    ['a fractional exit code', { ...outputEvents.run_end!.minimal, exitCode: 1.5 }, 'exitCode', 'Expected integer, received number'],
    ['a negative exit code', { ...outputEvents.run_end!.minimal, exitCode: -1 }, 'exitCode', /0/],
    ['negative token counts', { ...outputEvents.usage!.minimal, promptTokens: -1 }, 'promptTokens', /0/],
    ['a negative cost', { ...outputEvents.usage!.minimal, costUsd: -0.5 }, 'costUsd', /0/],
    ['token counts as strings', { ...outputEvents.usage!.minimal, totalTokens: '10' }, 'totalTokens', 'Expected number, received string'],
    ['a tool call id that starts with a dash', { ...outputEvents.tool_call!.minimal, id: '-call' }, 'id', /pattern/],
    ['a tool result id with a space', { ...outputEvents.tool_result!.minimal, id: 'call 1' }, 'id', /pattern/],
    ['a malformed run id', { ...outputEvents.final!.minimal, runId: 'run 1' }, 'runId', /pattern/],
    ['a run id of 129 characters', { ...outputEvents.final!.minimal, runId: 'r'.repeat(129) }, 'runId', /128/],
    ['a malformed session id', { ...outputEvents.run_start!.minimal, sessionId: '_session' }, 'sessionId', /pattern/],
    ['a null cwd', { ...outputEvents.run_start!.minimal, cwd: null }, 'cwd', 'Expected string, received null'],
  ];
  for (const [what, value, field, problem] of cases) {
    const verdict = checkAgainstSchema('output', value);
    t.equal(verdict.ok, false, what);
    if (!verdict.ok) {
      t.equal(verdict.field, field, `${what}: field`);
      if (typeof problem === 'string') t.equal(verdict.problem, problem, `${what}: problem`);
      else t.match(verdict.problem, problem, `${what}: problem`);
    }
  }
});

t.test('output: run and session ids of another program are ids; a pattern remembers only what it accepted itself', async (t) => {
  const sessionId = 'sess_EnZUTZQgBMRI';
  t.equal(checkAgainstSchema('output', { ...outputEvents.run_start!.minimal, sessionId }).ok, true, 'a session id of another program');
  const runId = 'ci-7f3a:job.12';
  t.equal(checkAgainstSchema('output', { ...outputEvents.final!.minimal, runId }).ok, true, 'a run id of another program');
  t.equal(checkAgainstSchema('output', { ...outputEvents.final!.minimal, runId: `${runId} x` }).ok, false, 'a longer one, not an id');
  t.equal(checkAgainstSchema('output', { ...outputEvents.final!.minimal, runId: `.${runId}` }).ok, false, 'one that does not start with a letter or digit');
  t.equal(checkAgainstSchema('output', { ...outputEvents.final!.minimal, runId }).ok, true, 'and the run id again');
});

t.test('output: a delta after an accepted event of its run gets the same verdict as any other line', async (t) => {
  for (const [kind, version] of [['output', 1], ['output.v2', 2]] as const) {
    const delta = { schemaVersion: version, type: 'text', runId, delta: 'word' };
    t.same(checkAgainstSchema(kind, delta), { ok: true, value: delta }, `${kind}: the first delta of the run`);
    t.same(checkAgainstSchema(kind, { ...delta, delta: 'next' }).ok, true, `${kind}: the next one`);
    t.same(checkAgainstSchema(kind, { ...delta, extra: 1 }), { ok: false, field: 'extra', problem: 'Unrecognized key: "extra"' }, `${kind}: a stray field`);
    t.same(checkAgainstSchema(kind, { ...delta, delta: '' }), { ok: false, field: 'delta', problem: 'Must not be empty' }, `${kind}: an empty delta`);
    t.same(checkAgainstSchema(kind, { ...delta, delta: 7 }), { ok: false, field: 'delta', problem: 'Expected string, received number' }, `${kind}: a delta that is not text`);
    t.equal(checkAgainstSchema(kind, { ...delta, schemaVersion: 3 - version }).ok, false, `${kind}: the other version`);
    t.equal(checkAgainstSchema(kind, { ...delta, runId: 'run 1' }).ok, false, `${kind}: a run id that is not one`);
    t.equal(checkAgainstSchema(kind, { ...delta, type: 'reasoning' }).ok, version === 2, `${kind}: reasoning, only in version 2`);
    t.equal(checkAgainstSchema(kind, Object.assign(Object.create({ extra: 1 }) as object, delta)).ok, false, `${kind}: an inherited stray field`);
  }
});

t.test('output: the delta events the shortcut knows are exactly schemaVersion, type, runId and a non-empty delta; runId is the same in every event', async (t) => {
  for (const kind of ['output', 'output.v2'] as const) {
    const branches = (loadSchema(kind).oneOf as { properties: Record<string, { const?: unknown }>; required: string[]; additionalProperties: boolean }[]);
    const deltas = branches.filter((branch) => 'delta' in branch.properties);
    t.same(deltas.map((branch) => branch.properties.type!.const).sort(), kind === 'output' ? ['text'] : ['reasoning', 'text'], kind);
    for (const branch of deltas) {
      t.same(Object.keys(branch.properties).sort(), ['delta', 'runId', 'schemaVersion', 'type']);
      t.same(branch.required.sort(), ['delta', 'runId', 'schemaVersion', 'type']);
      t.same(branch.properties.delta, { type: 'string', minLength: 1 });
      t.equal(branch.additionalProperties, false);
    }
    for (const branch of branches) t.same(branch.properties.runId, branches[0]!.properties.runId, `${kind} ${String(branch.properties.type!.const)}: runId`);
  }
});

t.test('output: ids may be up to 128 characters', async (t) => {
  t.equal(checkAgainstSchema('output', { ...outputEvents.tool_call!.minimal, id: 'a'.repeat(128) }).ok, true);
  const verdict = checkAgainstSchema('output', { ...outputEvents.tool_call!.minimal, id: 'a'.repeat(129) });
  t.match(verdict, { ok: false, field: 'id' });
  t.equal(checkAgainstSchema('output', { ...outputEvents.tool_result!.minimal, id: 'a'.repeat(129) }).ok, false);
});

t.test('output: every side effect is accepted', async (t) => {
  for (const sideEffect of ['read', 'write', 'shell', 'network', 'unknown']) {
    t.equal(checkAgainstSchema('output', { ...outputEvents.tool_call!.minimal, sideEffect }).ok, true, sideEffect);
  }
});

t.test('input: both shapes are accepted and anything else is named', async (t) => {
  const message = { schemaVersion: 1, type: 'message', role: 'user', content: 'Inspect this repo.' };
  const prompt = { schemaVersion: 1, type: 'prompt', content: 'Return only blockers.' };
  t.same(checkAgainstSchema('input', message), { ok: true, value: message });
  t.same(checkAgainstSchema('input', prompt), { ok: true, value: prompt });
  t.same(checkAgainstSchema('input', { ...prompt, role: 'user' }), { ok: false, field: 'role', problem: 'Unrecognized key: "role"' });
  t.same(checkAgainstSchema('input', { ...message, role: 'system' }), { ok: false, field: 'role', problem: 'Expected "user", received "system"' });
  t.same(checkAgainstSchema('input', { ...prompt, content: '' }), { ok: false, field: 'content', problem: 'Must not be empty' });
  t.same(checkAgainstSchema('input', { ...prompt, type: 'reply' }), { ok: false, field: 'type', problem: 'Unknown type "reply"' });
});

t.test('script: nested fields are named with dots and [index]', async (t) => {
  t.same(checkAgainstSchema('script', { toolCalls: [{ args: {} }] }), { ok: false, field: 'toolCalls[0].name', problem: 'Required field is missing' });
  t.same(checkAgainstSchema('script', { toolCalls: [{ name: 'a', args: {} }, { name: '', args: {} }] }), { ok: false, field: 'toolCalls[1].name', problem: 'Must not be empty' });
  t.same(checkAgainstSchema('script', { toolCalls: [{ name: 'a', args: {}, nmae: 'b' }] }), { ok: false, field: 'toolCalls[0].nmae', problem: 'Unrecognized key: "nmae"' });
  t.same(checkAgainstSchema('script', { chunks: ['a', 2] }), { ok: false, field: 'chunks[1]', problem: 'Expected string, received number' });
  t.same(checkAgainstSchema('script', { usage: { promptTokens: 1, cost: 2 } }), { ok: false, field: 'usage.cost', problem: 'Unrecognized key: "cost"' });
  t.same(checkAgainstSchema('script', { error: { message: 'x', status: 1.5 } }), { ok: false, field: 'error.status', problem: 'Expected integer, received number' });
  t.same(checkAgainstSchema('script', { expect: {} }), { ok: false, field: 'expect.contains', problem: 'Required field is missing' });
  t.same(checkAgainstSchema('script', { expect: { contains: [1] } }), { ok: false, field: 'expect.contains[0]', problem: 'Expected string, received number' });
});

t.test('script: chunks and text together are rejected on the text field', async (t) => {
  t.same(checkAgainstSchema('script', { chunks: ['a'], text: 'b' }), { ok: false, field: 'text', problem: 'Not allowed together with the other fields given' });
  t.equal(checkAgainstSchema('script', { chunks: ['a'] }).ok, true);
  t.equal(checkAgainstSchema('script', { text: 'b', toolCalls: [{ id: 'c1', name: 'grep', args: { pattern: 'x' } }], usage: { promptTokens: 1 } }).ok, true);
  t.equal(checkAgainstSchema('script', {}).ok, true);
});

t.test('a value that is not an object is reported on the (root) field', async (t) => {
  t.same(checkAgainstSchema('output', []), { ok: false, field: '(root)', problem: 'Expected object, received array' });
  t.same(checkAgainstSchema('input', 'prompt'), { ok: false, field: '(root)', problem: 'Expected object, received string' });
  t.throws(() => validateParsed('output', { value: null, lineNo: 2 }), { message: 'Invalid output event at line 2: (root): Expected object, received null' });
});

t.test('validateParsed returns the value itself when it is valid', async (t) => {
  const value = { schemaVersion: 1, type: 'prompt', content: 'hi' };
  t.equal(validateParsed('input', { value, lineNo: 1 }), value);
  const event = outputEvents.run_end!.full;
  t.equal(validateParsed('output', { value: event, lineNo: 9 }), event);
});

t.test('validateParsed throws a usage error "Invalid <label> at line N: <field>: <problem>"', async (t) => {
  const cases: [Parameters<typeof validateParsed>[0], unknown, string][] = [
    ['input', { schemaVersion: 1, type: 'prompt', content: 'x', extra: true }, 'Invalid stream-json input at line 4: extra: Unrecognized key: "extra"'],
    ['output', { ...outputEvents.text!.minimal, delta: '' }, 'Invalid output event at line 4: delta: Must not be empty'],
    ['script', { toolCalls: [{ args: {} }] }, 'Invalid script at line 4: toolCalls[0].name: Required field is missing'],
  ];
  for (const [kind, value, message] of cases) {
    t.throws(() => validateParsed(kind, { value, lineNo: 4 }), { message, code: 'usage_error', exitCode: 2, recoverable: true });
    t.throws(() => validateParsed(kind, { value, lineNo: 4 }), UsageError);
  }
});

t.test('validateParsed uses a given label', async (t) => {
  t.throws(() => validateParsed('script', { value: { delayMs: -1 }, lineNo: 12 }, 'script demo.jsonl'), { message: /^Invalid script demo\.jsonl at line 12: delayMs: / });
});

t.test('a refused value or key that holds a secret is redacted in the problem and the field', async (t) => {
  const key = ['sk-proj-', 'Qm7Xt2Lp9Rv4Nc8Hb3Wd6Kf1Zs5Yg0Ja'].join('');
  const status = checkAgainstSchema('output', { ...head, type: 'run_end', status: key, exitCode: 0 });
  t.match(status, { ok: false, problem: /\[REDACTED\]/ });
  t.notMatch(JSON.stringify(status), key.slice(8));
  const stray = checkAgainstSchema('output', { ...head, type: 'heartbeat', [key]: 1 });
  t.match(stray, { ok: false, problem: /Unrecognized key: "\[REDACTED\]"/ });
  t.notMatch(JSON.stringify(stray), key.slice(8));
});

t.test('a number JSON cannot write back (1e400 reads as Infinity) is no number of an event, in the schemas and in tool arguments', async (t) => {
  const usage = JSON.parse('{"schemaVersion":1,"type":"usage","runId":"run_20260101000000_abcdef","promptTokens":1e400,"completionTokens":1,"totalTokens":2}');
  t.same(checkAgainstSchema('output', usage), { ok: false, field: 'promptTokens', problem: 'Expected number, received a number too large for JSON (Infinity)' });
  t.match(compileChecker({ type: 'object', properties: { n: { type: 'number' } } })({ n: -Infinity }), { ok: false });
  t.match(checkAgainstSchema('output', { ...usage, promptTokens: 1e300 }), { ok: true });
});
