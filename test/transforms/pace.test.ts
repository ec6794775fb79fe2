import t from 'tap';
import { pace } from '../../transforms/pace.js';
import { through } from '../helpers/streams.js';

t.test('events pass through in order, spaced by the delay', async (t) => {
  const started = Date.now();
  t.same(await through(pace(20), [1, 2, 3]), [1, 2, 3]);
  t.ok(Date.now() - started >= 40, 'two gaps of 20 ms');
});

t.test('no delay: as they come', async (t) => {
  t.same(await through(pace(0), ['a', 'b']), ['a', 'b']);
});
