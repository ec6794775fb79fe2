import t from 'tap';
import { createStatsCollector } from '../../../lib/logs/stats.js';
import { createTurnCounter } from '../../../lib/logs/turns.js';
import { transcriptOf } from '../../../lib/render/transcript.js';

const runId = 'run_20260101000000_abcdef';
type Shape = Record<string, unknown>[];

const text = (delta = 'x') => ({ type: 'text', delta });
const usage = () => ({ type: 'usage', promptTokens: 1, completionTokens: 1, totalTokens: 2 });
const call = (id: string) => ({ type: 'tool_call', id, name: 'read_file', args: {}, sideEffect: 'read' });
const result = (id: string) => ({ type: 'tool_result', id, status: 'ok', output: 'o', truncated: false });
const final = (text = 'x') => ({ type: 'final', text });
const start = { type: 'run_start', cwd: '/', provider: 'scripted', model: 'm' };
const success = { type: 'run_end', status: 'success', exitCode: 0 };
const turnStart = (turn: number) => ({ type: 'turn_start', turn, content: `message ${turn}` });
const turnEnd = (turn: number, status = 'success') => ({ type: 'turn_end', turn, status });

/** Runs as the agent loop (lib/agent/loop.ts) writes them, and the turns each has. */
const SHAPES: [string, Shape, number][] = [
  ['one answer', [start, text(), usage(), final(), success], 1],
  ['a turn of several calls, run one by one, then the answer', [start, text(), usage(), call('a'), result('a'), call('b'), result('b'), text('y'), usage(), final('y'), success], 2],
  ['a first turn of tool calls alone', [start, call('a'), result('a'), text('y'), final('y'), success], 2],
  ['a later turn of tool calls alone, with no usage: counted with the turn before', [start, text(), call('a'), result('a'), call('b'), result('b'), text('y'), final('y'), success], 2],
  ['a later turn of tool calls alone, with its usage', [start, text(), usage(), call('a'), result('a'), usage(), call('b'), result('b'), text('y'), usage(), final('y'), success], 3],
  ['an empty answer after results: a turn of its own', [start, text(), call('a'), result('a'), final(''), success], 2],
  ['the turn limit (version 1): the final repeats the last turn, and is none', [start, text(), usage(), call('a'), result('a'), final(), { type: 'error', code: 'max_turns', message: 'm', recoverable: true }, { type: 'run_end', status: 'error', exitCode: 4 }], 1],
  ['a failed run', [start, text('Half'), { type: 'error', code: 'provider_error', message: 'm', recoverable: false }, { type: 'run_end', status: 'error', exitCode: 3 }], 1],
  ['a failure before any turn', [start, { type: 'error', code: 'provider_error', message: 'm', recoverable: false }, { type: 'run_end', status: 'error', exitCode: 3 }], 0],
  ['a conversation: each user turn is answered by model turns of its own', [start, turnStart(1), text(), final(), turnEnd(1), turnStart(2), text('y'), final('y'), turnEnd(2), success], 2],
  ['a conversation: a user turn answered with tool calls, then one answered at once', [start, turnStart(1), text(), usage(), call('a'), result('a'), text('y'), usage(), final('y'), turnEnd(1), turnStart(2), call('b'), result('b'), final('z'), turnEnd(2), success], 4],
  ['a conversation: a user turn at the turn limit ends incomplete, its final repeats its last model turn', [start, turnStart(1), text(), call('a'), result('a'), final(), turnEnd(1, 'incomplete'), turnStart(2), text(), final(), turnEnd(2), success], 2],
  ['a conversation: an interrupted user turn, and one interrupted before it ran (no model turn)', [start, turnStart(1), text(), call('a'), result('a'), turnEnd(1, 'interrupted'), turnStart(2), turnEnd(2, 'interrupted'), turnStart(3), text(), final(), turnEnd(3), success], 2],
];

const v2 = (shape: Shape) => shape.map((event) => ({ ...event, schemaVersion: 2 }));
const SHAPES_V2: [string, Shape, number][] = [
  ['reasoning starts a turn like text; a checkpoint and a permission_request wait with their call', v2([start, { type: 'reasoning', delta: 'r' }, call('a'), { type: 'checkpoint', checkpoint: { sequence: 1, tool: 'write_file', files: ['f'] } }, { ...result('a'), name: 'read_file' }, { type: 'reasoning', delta: 'r' }, text(), final(), success]), 2],
  ['the turn limit (version 2)', v2([start, text(), call('a'), { ...result('a'), name: 'read_file' }, final(), { type: 'error', code: 'incomplete', message: 'm', recoverable: true }, { type: 'run_end', status: 'incomplete', exitCode: 4 }]), 1],
];

const count = (shape: Shape) => {
  const counter = createTurnCounter();
  for (const event of shape) counter.starts(event);
  return counter.turns;
};

t.test('a turn is one provider call: its reasoning, text and usage, then its tool calls and their results', async (t) => {
  for (const [name, shape, turns] of [...SHAPES, ...SHAPES_V2]) t.equal(count(shape), turns, name);
});

t.test('starts: true for the event that begins a turn, and only that one', async (t) => {
  const counter = createTurnCounter();
  t.same([text(), usage(), call('a'), result('a'), call('b'), result('b'), text(), final()].map((event) => counter.starts(event)), [true, false, false, false, false, false, true, false]);
  t.equal(counter.turns, 2);
});

t.test('zero stats and zero render count the same turns, whatever the shape', async (t) => {
  for (const [name, shape, turns] of [...SHAPES, ...SHAPES_V2]) {
    const events = shape.map((event) => ({ schemaVersion: 1, runId, ...event }));
    const stats = createStatsCollector();
    events.forEach((value, index) => stats.item({ lineNo: index + 1, value }));
    t.equal(stats.skipped, 0, `${name}: every event valid`);
    const rendered = transcriptOf(events).flatMap((piece) => (piece.kind === 'run_end' ? [piece.summary.turns] : []));
    t.same([stats.runs()[0]!.modelTurns, ...rendered], [turns, turns], name);
  }
});
