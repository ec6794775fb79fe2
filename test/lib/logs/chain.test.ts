import t from 'tap';
import { logChain } from '../../../lib/logs/chain.js';
import { mapStep } from '../../../lib/streams.js';
import { through } from '../../helpers/streams.js';

/** Each line as the steps see it: where a person would find it, and its number in the log. */
const whereChain = (options = {}) =>
  logChain(options, (places) => [mapStep((item: { lineNo: number }) => `${places.label(item.lineNo)} (log line ${item.lineNo})\n`)]);

t.test('logChain: a log\'s lines framed and numbered, given to the steps with where each is', async (t) => {
  const out = await through<Buffer>(whereChain(), [Buffer.from('{"a":1}\n{"a":2}\n')]);
  t.equal(out.join(''), 'line 1 (log line 1)\nline 2 (log line 2)\n');
});

t.test('logChain: several files as one log, each line named in its file, the last line of a file ended without a newline', async (t) => {
  const out = await through<Buffer>(whereChain(), [{ logFile: 'a.jsonl' }, Buffer.from('{"a":1}\n{"a":2}'), { logFile: 'b.jsonl' }, Buffer.from('{"b":1}\n')]);
  t.equal(out.join(''), 'line 1 of a.jsonl (log line 1)\nline 2 of a.jsonl (log line 2)\nline 1 of b.jsonl (log line 3)\n');
});

t.test('logChain: a line longer than maxLineBytes ends the chain with a usage error that names it', async (t) => {
  await t.rejects(through<Buffer>(whereChain({ maxLineBytes: 16 }), [Buffer.from(`{"a":1}\n{"a":"${'x'.repeat(40)}"}\n`)]), /line 2/);
});
