import t from 'tap';
import { cachedByName } from '../../../lib/redaction/names.js';

function counted<T>(judge: (name: string) => T) {
  const calls: string[] = [];
  const cached = cachedByName((name: string) => {
    calls.push(name);
    return judge(name);
  });
  return { cached, calls };
}

t.test('answers what the judge answers', async (t) => {
  const { cached } = counted((name) => name.toLowerCase().includes('token'));
  t.equal(cached('apiToken'), true);
  t.equal(cached('delta'), false);
  t.equal(cached('TOKEN'), true);
  t.equal(cached('type'), false);
});

t.test('each name is judged once', async (t) => {
  const { cached, calls } = counted((name) => name.length);
  t.equal(cached('type'), 4);
  t.equal(cached('delta'), 5);
  t.equal(cached('type'), 4);
  t.equal(cached('delta'), 5);
  t.equal(cached('promptTokens'), 12);
  t.equal(cached('type'), 4);
  t.same(calls, ['type', 'delta', 'promptTokens']);
});

t.test('the last name repeated: answered without the judge or the map', async (t) => {
  const { cached, calls } = counted((name) => ({ name }));
  const first = cached('delta');
  for (let i = 0; i < 100; i++) t.equal(cached('delta'), first, 'the same answer object');
  t.same(calls, ['delta']);
});

t.test('falsy answers are cached too', async (t) => {
  const { cached, calls } = counted((name) => (name === 'zero' ? 0 : false));
  t.equal(cached('zero'), 0);
  t.equal(cached('no'), false);
  t.equal(cached('zero'), 0);
  t.equal(cached('no'), false);
  t.same(calls, ['zero', 'no']);
});

t.test('separate caches per cachedByName call', async (t) => {
  const a = counted(() => 'a');
  const b = counted(() => 'b');
  t.equal(a.cached('x'), 'a');
  t.equal(b.cached('x'), 'b');
  t.same(a.calls, ['x']);
  t.same(b.calls, ['x']);
});

t.test('names over 256 characters are not cached (except as the last name)', async (t) => {
  const { cached, calls } = counted((name) => name.length);
  const long = 'k'.repeat(257);
  const edge = 'e'.repeat(256);
  t.equal(cached(long), 257);
  t.equal(cached(long), 257, 'last-name fast path');
  t.equal(calls.length, 1);
  t.equal(cached(edge), 256);
  t.equal(cached(long), 257);
  t.equal(cached(edge), 256, '256 characters are cached');
  t.same(calls, [long, edge, long]);
});

t.test('the map is bounded: cleared once it holds 4096 names', async (t) => {
  const { cached, calls } = counted((name) => name);
  for (let i = 0; i < 4096; i++) cached(`n${i}`);
  t.equal(calls.length, 4096);
  cached('n0');
  cached('n4095');
  t.equal(calls.length, 4096, 'all 4096 still cached');
  cached('n4096'); // the 4097th name clears the map before it is stored
  t.equal(calls.length, 4097);
  cached('n1');
  t.equal(calls.length, 4098, 'an old name judged again after the clear');
  cached('n4096');
  t.equal(calls.length, 4098, 'the name that caused the clear is cached');
});
