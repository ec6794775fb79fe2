import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tsWorker } from '../../helpers/ts-worker.js';
import t from 'tap';
import type { MatchReply, MatchRequest } from '../../../lib/tools/grep_worker.js';
import {  } from '../../helpers/repo.js';

// The worker as grep_matcher.ts starts it: a thread that answers one file's request at a time.
const worker = tsWorker('lib/tools/grep_worker');
t.teardown(() => worker.terminate());

const dir = mkdtempSync(join(tmpdir(), 'zero-grep-worker-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, 'notes.txt');
writeFileSync(file, 'alpha\nbeta\nalphabet\n\ngamma alpha\n');

/** Sends one request and collects the replies up to the last one (done or error). */
async function ask(request: Omit<MatchRequest, 'displayPath' | 'budgetBytes' | 'maxLineBytes'> & Partial<MatchRequest>): Promise<MatchReply[]> {
  const replies: MatchReply[] = [];
  worker.postMessage({ displayPath: 'notes.txt', budgetBytes: 1 << 20, maxLineBytes: 1 << 20, ...request });
  for (;;) {
    const [reply] = (await once(worker, 'message')) as [MatchReply];
    replies.push(reply);
    if (!('hit' in reply)) return replies;
  }
}

t.test('each matching line is a hit "<path>:<line>:<text>", then the bytes the hits took', async (t) => {
  t.same(await ask({ pattern: 'alpha', path: file }), [
    { hit: 'notes.txt:1:alpha' },
    { hit: 'notes.txt:3:alphabet' },
    { hit: 'notes.txt:5:gamma alpha' },
    { done: true, hitBytes: 18 + 21 + 24 },
  ]);
});

t.test('a new pattern is compiled for the next file; the same one is reused', async (t) => {
  t.same(await ask({ pattern: '^b', path: file }), [{ hit: 'notes.txt:2:beta' }, { done: true, hitBytes: 17 }]);
  t.same(await ask({ pattern: '^b', path: file }), [{ hit: 'notes.txt:2:beta' }, { done: true, hitBytes: 17 }]);
});

t.test('the file stops at the first hit past the budget', async (t) => {
  const replies = await ask({ pattern: 'a', path: file, budgetBytes: 20 });
  t.same(replies, [{ hit: 'notes.txt:1:alpha' }, { hit: 'notes.txt:2:beta' }, { done: true, hitBytes: 35 }]);
});

t.test('a file that cannot be opened is skipped, saying why; a failure is an error reply; the worker goes on', async (t) => {
  const [skipped] = await ask({ pattern: 'a', path: join(dir, 'missing.txt') });
  t.match(skipped, { done: true, hitBytes: 0, skipped: { reason: 'unopened', message: /ENOENT|no such file/ } });
  const [failed] = await ask({ pattern: 'foo(', path: file });
  t.match(failed, { error: /^Invalid regular expression "foo\(": / });
  t.same((await ask({ pattern: 'gamma', path: file })).length, 2);
});
