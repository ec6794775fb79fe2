import t from 'tap';
import { redactLogChain } from '../../../lib/logs/redact-chain.js';
import { through } from '../../helpers/streams.js';

const runId = 'run_20261201000000_abcdef';
const logOf = (...events: object[]) => events.map((event) => `${JSON.stringify({ schemaVersion: 1, runId, ...event })}\n`).join('');
const KEY = ['ghp_', 'Zy9Xw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa'].join('');
const RUN = logOf(
  { type: 'run_start', cwd: '/repo', provider: 'scripted', model: 'm' },
  { type: 'text', delta: `The key is ${KEY.slice(0, 10)}` },
  { type: 'text', delta: `${KEY.slice(10)}.` },
  { type: 'final', text: 'done' },
  { type: 'run_end', status: 'success', exitCode: 0 },
);

t.test('redactLogChain: the same log, the split key redacted, clean lines as they came', async (t) => {
  const out = (await through<Buffer>(redactLogChain(), [Buffer.from(RUN)])).join('');
  t.notMatch(out, KEY.slice(4, 16));
  const [first, , , final, last] = RUN.trimEnd().split('\n');
  t.same(out.trimEnd().split('\n').filter((line) => !line.includes('"type":"text"')), [first, final, last]);
});

t.test('redactLogChain: a credential in use, in a log of two files (the second without its last newline)', async (t) => {
  const credential = 'Zq8nR2vT6yU1iO5pL9kJ';
  const second = logOf({ type: 'tool_result', id: 'c1', name: 'read_file', status: 'ok', output: `token ${credential}` }).trimEnd();
  const out = (await through<Buffer>(redactLogChain({ redaction: { secrets: [credential] } }), [{ logFile: 'a.jsonl' }, Buffer.from(RUN), { logFile: 'b.jsonl' }, Buffer.from(second)])).join('');
  t.notMatch(out, credential);
  const lines = out.trimEnd().split('\n').map((line) => JSON.parse(line) as { type: string; output?: string });
  t.same([lines[0]!.type, ...lines.slice(-3).map((event) => event.type)], ['run_start', 'final', 'run_end', 'tool_result'], 'both files, in order');
  t.equal(lines.at(-1)!.output, 'token [REDACTED]');
});
