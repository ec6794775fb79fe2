import t from 'tap';
import { agent } from '../../transforms/agent.js';
import { ScriptedProvider, type ScriptTurn } from '../../lib/providers/scripted.js';
import { CancelledError } from '../../lib/errors.js';
import { settled } from '../helpers/timing.js';
import type { Event } from '../../lib/protocol/types.js';
import { planTools } from '../../lib/tools/permissions.js';
import { allTools, toolboxFor } from '../../lib/tools/registry.js';
import { stamp } from '../../transforms/stamp.js';
import { checkAgainstSchema } from '../../lib/protocol/validate.js';
import { throughUntilError } from '../helpers/streams.js';

// The agent stage is an adapter (lib/exchange-stream.ts over lib/agent/run.ts): these tests are of the
// stage, its events pulled as the reader reads, its failures after its events, its cancelling; what the loop does
// is tested on the loop (test/lib/agent/).

const types = (events: Event[]) => events.map((event) => event.type);

function run(turns: ScriptTurn[], cwd: string, extra: Partial<Parameters<typeof agent>[0]> = {}) {
  const provider = new ScriptedProvider(turns);
  return throughUntilError<Event>(agent({ provider, cwd, ...extra }), [{ prompt: 'What is in notes.txt?' }]);
}

t.test('a plain answer: run_start, the deltas, usage, final', async (t) => {
  const cwd = t.testdir({});
  const { out, error } = await run([{ chunks: ['Hello', ' there'], usage: { promptTokens: 3, completionTokens: 2 } }], cwd);
  t.equal(error, undefined);
  t.same(out, [
    { type: 'run_start', cwd, provider: 'scripted', model: 'scripted' },
    { type: 'text', delta: 'Hello' },
    { type: 'text', delta: ' there' },
    { type: 'usage', promptTokens: 3, completionTokens: 2, totalTokens: 5 },
    { type: 'final', text: 'Hello there' },
  ]);
});

t.test('a provider error keeps the deltas already streamed, then fails', async (t) => {
  const { out, error } = await run([{ chunks: ['par', 'tial'], error: { message: 'overloaded', status: 529 } }], t.testdir({}));
  t.same(types(out), ['run_start', 'text', 'text']);
  t.equal((error as { code?: string }).code, 'provider_error');
  t.match(error?.message, /turn 1 \(HTTP 529\): overloaded/);
});

t.test('cancelling mid-stream stops the provider and fails with the reason', async (t) => {
  const controller = new AbortController();
  const provider = new ScriptedProvider([{ chunks: ['a', 'b', 'c', 'd', 'e'], delayMs: 30 }]);
  const stage = agent({ provider, cwd: t.testdir({}), signal: controller.signal });
  const seen: Event[] = [];
  stage.on('data', (event: Event) => {
    seen.push(event);
    if (event.type === 'text' && event.delta === 'b') controller.abort(new CancelledError('SIGTERM'));
  });
  const failed = new Promise<Error>((resolve) => stage.on('error', resolve));
  stage.end({ prompt: 'go' });
  const error = await failed;
  t.equal((error as { exitCode?: number }).exitCode, 143);
  t.same(types(seen), ['run_start', 'text', 'text']);
  t.ok(provider.handedOut < 5, 'the remaining chunks were never pulled');
});

t.test('cancelling before any prompt arrived fails at once', async (t) => {
  const controller = new AbortController();
  const stage = agent({ provider: new ScriptedProvider([]), cwd: t.testdir({}), signal: controller.signal });
  const failed = new Promise<Error>((resolve) => stage.on('error', resolve));
  controller.abort(new CancelledError('SIGINT'));
  t.equal(((await failed) as { exitCode?: number }).exitCode, 130);
});

t.test('a paused reader stops the provider (backpressure)', async (t) => {
  const provider = new ScriptedProvider([{ chunks: Array.from({ length: 1000 }, (_, i) => `chunk ${i} `) }]);
  const stage = agent({ provider, cwd: t.testdir({}) });
  stage.write({ prompt: 'go' });
  stage.end();
  await settled(() => provider.handedOut);
  t.ok(provider.handedOut <= 2, `handed out ${provider.handedOut} chunks while nobody read`);
  let count = 0;
  for await (const _event of stage) count++;
  t.equal(count, 1 + 1000 + 1, 'run_start, every delta, final');
});

/** A scripted run of the agent stage, its events stamped in `version` (as the output chain writes them). */
async function stamped(version: 1 | 2, turns: ScriptTurn[], cwd: string, auto: 'low' | 'high') {
  const plan = planTools(allTools, { auto });
  const stage = agent({ provider: new ScriptedProvider(turns), cwd, toolbox: toolboxFor(plan), warnings: plan.warnings });
  const stamping = stage.pipe(stamp({ schemaVersion: version, runId: 'run_20261201000000_abcdef' }));
  stage.end({ prompt: 'go' });
  const out: Record<string, unknown>[] = [];
  for await (const event of stamping) out.push(event);
  return out;
}

const writeThenEdit: ScriptTurn[] = [
  { toolCalls: [{ id: 'w1', name: 'write_file', args: { path: 'notes.txt', content: 'draft\n' } }, { id: 'r1', name: 'read_file', args: { path: '../elsewhere.txt' } }] },
  { toolCalls: [{ id: 'e1', name: 'edit_file', args: { path: 'notes.txt', old_string: 'draft', new_string: 'final' } }] },
  { text: 'done' },
];

for (const auto of ['low', 'high'] as const) {
  t.test(`--auto ${auto}, schema version 2: checkpoint, permission events and changedFiles, every event valid`, async (t) => {
    const out = await stamped(2, writeThenEdit, t.testdir({}), auto);
    for (const event of out) {
      const verdict = checkAgainstSchema('output.v2', event);
      t.ok(verdict.ok, `${String(event.type)} is valid version 2 ${verdict.ok ? '' : `${verdict.field}: ${verdict.problem}`}`);
    }
    const readRefusal = { type: 'permission_request', id: 'r1', name: 'read_file', permission: 'allow', block: { code: 'outside_workspace', path: '../elsewhere.txt' } };
    if (auto === 'low') {
      // --auto low allows writes inside the working directory: each with its permission_decision
      t.same(types(out as Event[]), ['run_start', 'tool_call', 'permission_decision', 'checkpoint', 'tool_result', 'tool_call', 'permission_request', 'tool_result', 'tool_call', 'permission_decision', 'checkpoint', 'tool_result', 'text', 'final']);
      t.match(out[2], { type: 'permission_decision', id: 'w1', name: 'write_file', action: 'allow', permission: 'prompt', permissionGranted: true, decisionReason: /^Auto-allowed at --auto low/ });
      t.match(out[4], { type: 'tool_result', id: 'w1', name: 'write_file', status: 'ok', changedFiles: ['notes.txt'] });
      t.match(out[6], { ...readRefusal, permissionMode: 'auto' });
    } else {
      t.same(types(out as Event[]), ['run_start', 'warning', 'tool_call', 'checkpoint', 'tool_result', 'tool_call', 'permission_request', 'tool_result', 'tool_call', 'checkpoint', 'tool_result', 'text', 'final']);
      t.match(out[3], { type: 'checkpoint', checkpoint: { sequence: 1, tool: 'write_file', files: ['notes.txt'] } });
      t.match(out[4], { type: 'tool_result', id: 'w1', name: 'write_file', status: 'ok', changedFiles: ['notes.txt'] });
      t.match(out[6], { ...readRefusal, permissionMode: 'unsafe' });
      t.match(out[9], { checkpoint: { sequence: 2, tool: 'edit_file', files: ['notes.txt'] } });
      t.match(out[10], { name: 'edit_file', status: 'ok', changedFiles: ['notes.txt'] });
    }
  });

  t.test(`--auto ${auto}, schema version 1: the same run as before, valid version 1`, async (t) => {
    const out = await stamped(1, writeThenEdit, t.testdir({}), auto);
    const expected = auto === 'low' ? ['run_start'] : ['run_start', 'warning'];
    t.same(types(out as Event[]), [...expected, 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'tool_call', 'tool_result', 'text', 'final']);
    for (const event of out) {
      t.ok(checkAgainstSchema('output', event).ok, `${String(event.type)} is valid version 1`);
      if (event.type === 'tool_result') t.same(Object.keys(event).sort(), ['id', 'output', 'runId', 'schemaVersion', 'status', 'truncated', 'type']);
    }
  });
}

t.test('the working directory must be an absolute path: a relative one is a TypeError when the stage is made', async (t) => {
  t.throws(() => agent({ provider: new ScriptedProvider([{ text: 'ok' }]), cwd: 'relative/dir' }), new TypeError('agent: options.cwd must be an absolute path, not a string.'));
});
