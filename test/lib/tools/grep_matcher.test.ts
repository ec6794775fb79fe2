import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { startLineMatcher } from '../../../lib/tools/grep_matcher.js';

// The matcher's worker thread at work; what a long line does to the main thread is in grep.test.ts.

t.test('gives each hit of a file in order, and the bytes they take; past the budget it stops reading the file', async (t) => {
  const dir = t.testdir({ 'notes.txt': 'one x\ntwo\nthree x\nfour x\n' });
  const matcher = startLineMatcher('x$', new AbortController().signal);
  t.teardown(() => matcher.close());
  const hits: string[] = [];
  const file = { path: join(dir, 'notes.txt'), displayPath: 'notes.txt', maxLineBytes: 1000 };
  t.same(await matcher.matchFile({ ...file, budgetBytes: 1000 }, (hit) => hits.push(hit)), { hitBytes: 57 }, 'each hit and its newline');
  t.same(hits, ['notes.txt:1:one x', 'notes.txt:3:three x', 'notes.txt:4:four x']);
  hits.length = 0;
  t.same(await matcher.matchFile({ ...file, budgetBytes: 20 }, (hit) => hits.push(hit)), { hitBytes: 38 }, 'the hit that passes the budget is the last');
  t.same(hits, ['notes.txt:1:one x', 'notes.txt:3:three x']);
});

t.test('a file that cannot be opened is skipped with the reason, and the next file is still searched', async (t) => {
  const dir = t.testdir({ 'b.txt': 'x\n' });
  const matcher = startLineMatcher('x', new AbortController().signal);
  t.teardown(() => matcher.close());
  t.match(await matcher.matchFile({ path: join(dir, 'a.txt'), displayPath: 'a.txt', budgetBytes: 1000, maxLineBytes: 1000 }, () => {}), { hitBytes: 0, skipped: { reason: 'unopened', message: /^ENOENT: no such file or directory/ } });
  const hits: string[] = [];
  await matcher.matchFile({ path: join(dir, 'b.txt'), displayPath: 'b.txt', budgetBytes: 1000, maxLineBytes: 1000 }, (hit) => hits.push(hit));
  t.same(hits, ['b.txt:1:x']);
});

t.test('aborting fails the file being searched, and any after it, with the reason of the abort', async (t) => {
  const dir = t.testdir({ 'a.txt': 'x\n' });
  const controller = new AbortController();
  const matcher = startLineMatcher('x', controller.signal);
  const request = { path: join(dir, 'a.txt'), displayPath: 'a.txt', budgetBytes: 1000, maxLineBytes: 1000 };
  const searching = matcher.matchFile(request, () => {});
  controller.abort(new Error('Cancelled by SIGINT.'));
  await t.rejects(searching, { message: 'Cancelled by SIGINT.' });
  await t.rejects(matcher.matchFile(request, () => {}), { message: 'Cancelled by SIGINT.' });
});

t.test('a file that is not searched says why: binary, a directory, a special file; a line over maxLineBytes is searched in its start, and said', { skip: process.platform === 'win32' }, async (t) => {
  const dir = t.testdir({ 'long.txt': `${'a'.repeat(50)}needle\nshort needle\n${'b'.repeat(60)}\n`, sub: {} });
  writeFileSync(join(dir, 'image.bin'), Buffer.from('needle\0'));
  execFileSync('mkfifo', [join(dir, 'pipe')]);
  const matcher = startLineMatcher('needle', new AbortController().signal);
  t.teardown(() => matcher.close());
  const match = (name: string, hits: string[] = []) => matcher.matchFile({ path: join(dir, name), displayPath: name, budgetBytes: 1000, maxLineBytes: 40 }, (hit) => hits.push(hit));
  t.same(await match('image.bin'), { hitBytes: 0, skipped: { reason: 'binary' } });
  t.same(await match('sub'), { hitBytes: 0, skipped: { reason: 'directory' } });
  t.same(await match('pipe'), { hitBytes: 0, skipped: { reason: 'special', kind: 'a FIFO (named pipe)' } }, 'at once: the worker never waits for a writer');
  const hits: string[] = [];
  t.same(await match('long.txt', hits), { hitBytes: 24, longLines: { count: 2, first: 1 } });
  t.same(hits, ['long.txt:2:short needle'], 'the needle past the first 40 bytes of line 1 is not seen');
});

t.test('a signal already aborted starts nothing', async (t) => {
  const controller = new AbortController();
  controller.abort();
  t.throws(() => startLineMatcher('x', controller.signal), { name: 'AbortError' });
});
