import t from 'tap';
import { serialize } from '../../transforms/serialize.js';
import { through, throughUntilError } from '../helpers/streams.js';
import type { OutputEvent } from '../../lib/protocol/types.js';

const runId = 'run_20261130053326_ab12cd';
const events = [
  { type: 'run_start', cwd: '/repo', provider: 'scripted', model: 'scripted', sessionId: 'zero_20261130053326_zz0000' },
  { type: 'warning', message: 'careful' },
  { type: 'text', delta: 'Let me ' },
  { type: 'text', delta: 'look.' },
  { type: 'tool_call', id: 'call_1', name: 'read_file', args: { path: 'README.md' }, sideEffect: 'read' },
  { type: 'tool_result', id: 'call_1', status: 'ok', output: `     1\t# Title\n${'x'.repeat(300)}`, truncated: false },
  { type: 'usage', promptTokens: 12, completionTokens: 8, totalTokens: 20 },
  { type: 'text', delta: 'Done.' },
  { type: 'final', text: 'Done.' },
  { type: 'run_end', status: 'success', exitCode: 0 },
].map((event) => ({ schemaVersion: 1, runId, ...event }) as OutputEvent);

const text = (chunks: unknown[]) => chunks.map(String).join('');

t.test('stream-json: one JSON line per event, each ending in a newline', async (t) => {
  const out = text(await through(serialize('stream-json'), events));
  const lines = out.split('\n');
  t.equal(lines.pop(), '', 'the last line ends with a newline too');
  t.same(lines.map((line) => JSON.parse(line)), events);
});

t.test('json: the older snake_case format', async (t) => {
  const lines = text(await through(serialize('json'), events)).trim().split('\n').map((line) => JSON.parse(line));
  t.same(lines[0], { type: 'run_start', run_id: runId, session_id: 'zero_20261130053326_zz0000', cwd: '/repo', provider: 'scripted', model: 'scripted' });
  t.same(lines[4], { type: 'tool_call', id: 'call_1', name: 'read_file', arguments: '{"path":"README.md"}', side_effect: 'read' });
  t.same(lines[5], { type: 'tool_result', tool_call_id: 'call_1', result: events[5] && (events[5] as { output: string }).output, is_error: false, truncated: false });
  t.same(lines[6], { type: 'usage', prompt_tokens: 12, completion_tokens: 8, total_tokens: 20 });
  t.same(lines.at(-1), { type: 'done', exit_code: 0 });
  t.same(lines.map((line) => line.type), ['run_start', 'warning', 'text', 'text', 'tool_call', 'tool_result', 'usage', 'text', 'final', 'done']);
});

t.test('text: the assistant text on stdout, progress on stderr', async (t) => {
  const progress: string[] = [];
  const out = text(await through(serialize('text', { stderr: { write: (line: string) => progress.push(line) } }), events));
  t.equal(out, 'Let me look.\nDone.\n', 'a later turn starts on a new line; the output ends with one');
  t.equal(progress[0], '[zero] WARNING: careful\n');
  t.equal(progress[1], '[tool] read_file README.md\n');
  t.equal(progress[2], '[ok] 2 lines\n', 'what came back, counted: never the raw output');
});

t.test('text: an error goes to stderr, and stdout still ends with a newline', async (t) => {
  const progress: string[] = [];
  const failing = [
    { type: 'text', delta: 'partial' },
    { type: 'error', code: 'provider_error', message: 'Provider failed', recoverable: false },
    { type: 'run_end', status: 'error', exitCode: 3 },
  ].map((event) => ({ schemaVersion: 1, runId, ...event }));
  const out = text(await through(serialize('text', { stderr: { write: (line: string) => progress.push(line) } }), failing));
  t.equal(out, 'partial\n');
  t.same(progress, ['[zero] Provider failed\n']);
});

t.test('text: nothing said, nothing printed', async (t) => {
  const out = await through(serialize('text', { stderr: { write: () => true } }), [{ schemaVersion: 1, runId, type: 'final', text: '' }]);
  t.same(out, []);
});

t.test('anything but an output event fails the stream: a string is no {"0":"a",…} line', async (t) => {
  for (const item of ['a line', { type: 'txet', schemaVersion: 1, runId }]) {
    const { out, error } = await throughUntilError(serialize('stream-json'), [events[0], item]);
    t.match(error, { name: 'TypeError', message: /^The serialize stage takes output events/ });
    t.notMatch(text(out), /"0":/);
  }
});
