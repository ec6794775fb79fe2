import t from 'tap';
import { createRunTranscript, MAX_WAITING_CALLS } from '../../../lib/render/run.js';
import { createRedactor } from '../../../lib/render/shown.js';
import type { Piece } from '../../../lib/render/transcript.js';

const R = 'run_20260101000000_abcdef';
const ev = (type: string, fields: Record<string, unknown> = {}) => ({ schemaVersion: 1, type, runId: R, ...fields });
const call = (id: string, name = 'read_file') => ev('tool_call', { id, name, args: { path: id } });
const result = (id: string, output = `out ${id}`) => ev('tool_result', { id, status: 'ok', output, truncated: false });

/** The pieces of one run's events (and of its close, when it has no run_end), plus what it skipped. */
function run(events: Record<string, unknown>[], prompt?: string) {
  const skipped: string[] = [];
  const transcript = createRunTranscript({ index: 1, runId: R, prompt, redact: createRedactor(), skip: (lineNo, reason) => void skipped.push(`${lineNo}: ${reason}`) });
  const pieces: Piece[] = [];
  const emit = (piece: Piece) => void pieces.push(piece);
  events.forEach((event, index) => transcript.event(String(event.type), event, index + 1, emit));
  if (!transcript.ended) transcript.close(emit, 'log');
  return { pieces, skipped, shape: pieces.map(describe) };
}

/** A piece in a word: `turn 1`, `tool c1 ok`, `final`, … */
function describe(piece: Piece): string {
  switch (piece.kind) {
    case 'turn':
      return `${piece.turn.continued ? 'more of' : 'turn'} ${piece.turn.index}${piece.turn.final ? ' (final)' : ''}${piece.turn.text ? `: ${piece.turn.text}` : ''}`;
    case 'tool':
      return `tool ${piece.call.id} ${piece.call.result?.status ?? 'no result'}`;
    case 'final':
      return `final${piece.sameAs !== undefined ? ` = turn ${piece.sameAs}` : `: ${piece.text}`}`;
    case 'run_end':
      return `end: ${piece.summary.turns} turns, ${piece.summary.toolCalls} calls`;
    default:
      return piece.kind;
  }
}

t.test('a turn of several calls, run one by one as the loop does: one turn, its calls in order', async (t) => {
  const { shape } = run([ev('run_start', { cwd: '/', provider: 'p', model: 'm' }), ev('text', { delta: 'Reading.' }), ev('usage', { promptTokens: 1 }), call('c1'), result('c1'), call('c2'), result('c2'), ev('text', { delta: 'Done.' }), ev('final', { text: 'Done.' }), ev('run_end', { status: 'success', exitCode: 0 })]);
  t.same(shape, ['run', 'turn 1: Reading.', 'tool c1 ok', 'tool c2 ok', 'turn 2 (final): Done.', 'end: 2 turns, 2 calls']);
});

t.test('a first turn of tool calls alone has its heading; a later one is counted with the turn before', async (t) => {
  const { shape } = run([call('c1'), result('c1'), call('c2'), result('c2'), ev('usage', { promptTokens: 1 }), ev('final', { text: '' }), ev('run_end', { status: 'success', exitCode: 0 })]);
  t.same(shape, ['run', 'turn 1', 'tool c1 ok', 'tool c2 ok', 'turn 2', 'final: ', 'end: 2 turns, 2 calls']);
});

t.test('the turn limit: the final repeats the last turn, which it points to; it is no turn', async (t) => {
  const { shape } = run([ev('text', { delta: 'Checking.' }), call('c1'), result('c1'), ev('final', { text: 'Checking.' }), ev('error', { code: 'max_turns', message: 'Reached the turn limit (1).', recoverable: true }), ev('run_end', { status: 'error', exitCode: 4 })]);
  t.same(shape, ['run', 'turn 1: Checking.', 'tool c1 ok', 'final = turn 1', 'error', 'end: 1 turns, 1 calls']);
});

t.test('a failed run: what the turn said, then the error, then the outcome', async (t) => {
  const { pieces, shape } = run([ev('text', { delta: 'Half' }), ev('error', { code: 'provider_error', message: 'overloaded', recoverable: false }), ev('run_end', { status: 'error', exitCode: 3 })]);
  t.same(shape, ['run', 'turn 1: Half', 'error', 'end: 1 turns, 0 calls']);
  t.match(pieces.at(-1), { summary: { outcome: { status: 'error', exitCode: 3 } } });
});

t.test('text after a notice goes on with the same turn, without a heading of its own', async (t) => {
  const { shape } = run([ev('text', { delta: 'One, ' }), ev('warning', { message: 'trimmed' }), ev('text', { delta: 'two.' }), ev('final', { text: 'One, two.' })]);
  t.same(shape, ['run', 'turn 1: One, ', 'warning', 'more of 1: two.', 'final: One, two.', 'end: 1 turns, 0 calls']);
});

t.test('calls are shown in the order they were made, each once answered; a run that stops shows what still waits', async (t) => {
  const { shape } = run([ev('text', { delta: 'Both.' }), call('c1'), call('c2'), result('c2'), result('c1'), call('c3')]);
  t.same(shape, ['run', 'turn 1: Both.', 'tool c1 ok', 'tool c2 ok', 'tool c3 no result', 'end: 1 turns, 3 calls']);
});

t.test(`at most ${MAX_WAITING_CALLS} calls wait: past that the oldest is shown without its result, which then has no call`, async (t) => {
  const ids = Array.from({ length: MAX_WAITING_CALLS + 1 }, (_, index) => `c${index}`);
  const { shape } = run([...ids.map((id) => call(id)), result('c0')]);
  t.equal(shape[1], 'turn 1');
  t.equal(shape[2], 'tool c0 no result', 'the oldest, as soon as one too many waits');
  t.equal(shape[3], 'orphan_result');
});

t.test('a result for no call, a permission_request for no waiting call, a run_start after the first event', async (t) => {
  const { shape, skipped } = run([ev('text', { delta: 'x' }), ev('run_start', { cwd: '/', provider: 'p', model: 'm' }), result('zz'), ev('permission_request', { id: 'nope', reason: 'r' })]);
  t.same(shape, ['run', 'start', 'turn 1: x', 'orphan_result', 'end: 1 turns, 0 calls']);
  t.same(skipped, ['4: permission_request for no tool_call "nope"']);
});

t.test('a run with its prompt opens with it; a run that never had an event still opens when it closes', async (t) => {
  t.match(run([ev('run_start', { cwd: '/w', provider: 'p', model: 'm' })], 'Hi').pieces[0], { kind: 'run', index: 1, runId: R, prompt: 'Hi', start: { cwd: '/w' } });
  t.same(run([], 'Hi').shape, ['run', 'end: 0 turns, 0 calls']);
});
