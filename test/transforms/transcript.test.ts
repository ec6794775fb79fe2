import t from 'tap';
import type { LogItem } from '../../lib/logs/framing.js';
import type { Piece } from '../../lib/render/transcript.js';
import { transcript } from '../../transforms/transcript.js';
import { through } from '../helpers/streams.js';

const runId = 'run_20260101000000_abcdef';
const item = (lineNo: number, value: object): LogItem => ({ lineNo, value: { schemaVersion: 1, runId, ...value } });

t.test('LogItems in, transcript pieces out, redacted with the credentials given', async (t) => {
  const secret = 'zk7731Qm7TfRp2LxWc9VbN3sYdHg6JkAe5Uo';
  const pieces = await through<Piece>(transcript({ secrets: [secret] }), [
    { lineNo: 1, value: { schemaVersion: 1, type: 'prompt', content: 'Hi' } },
    item(2, { type: 'run_start', cwd: '/', provider: 'scripted', model: 'm' }),
    item(3, { type: 'text', delta: `the key is ${secret}` }),
    item(4, { type: 'final', text: `the key is ${secret}` }),
    item(5, { type: 'run_end', status: 'success', exitCode: 0 }),
  ]);
  t.same(pieces.map((piece) => piece.kind), ['run', 'turn', 'run_end', 'log_end']);
  t.match(pieces[0], { kind: 'run', index: 1, runId, prompt: 'Hi' });
  t.match(pieces[1], { kind: 'turn', turn: { text: 'the key is [REDACTED]', final: true } });
});
