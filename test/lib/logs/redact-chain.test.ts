import t from 'tap';
import { KEY, RUN, logOf } from '../../helpers/split-key-run.js';
import { redactLogChain } from '../../../lib/logs/redact-chain.js';
import { through } from '../../helpers/streams.js';


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
