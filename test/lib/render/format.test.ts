import t from 'tap';
import { formatArgs, isLong, lineCount, sizeLabel, tokenSummary, transcriptTitle } from '../../../lib/render/format.js';

t.test('folding thresholds: more than 40 lines or 4 KB', async (t) => {
  t.equal(lineCount(''), 0);
  t.equal(lineCount('a\nb\n'), 2);
  t.equal(isLong(Array(40).fill('x').join('\n')), false);
  t.equal(isLong(Array(41).fill('x').join('\n')), true);
  t.equal(isLong('x'.repeat(4096)), false);
  t.equal(isLong('x'.repeat(4097)), true);
  t.equal(sizeLabel('a\nb'), '2 lines, 3 B');
  t.equal(sizeLabel('x'.repeat(5000)), '1 line, 4.9 KB');
});

t.test('arguments as indented JSON; token totals in a line, or nothing when none were reported', async (t) => {
  t.equal(formatArgs({ path: 'a' }), '{\n  "path": "a"\n}');
  t.equal(formatArgs(undefined), '');
  t.equal(tokenSummary({ promptTokens: 3, completionTokens: 1, totalTokens: 4, costUsd: 0.5 }), '3 prompt · 1 completion · 4 total · $0.5000');
  t.equal(tokenSummary({}), undefined);
});

t.test('the title names the log\'s file when it has one', async (t) => {
  t.equal(transcriptTitle('run.jsonl'), 'Zero transcript: run.jsonl');
  t.equal(transcriptTitle(), 'Zero transcript');
});
