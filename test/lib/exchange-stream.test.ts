import t from 'tap';
import { exchangeStream, type Exchange } from '../../lib/exchange-stream.js';
import { settled } from '../helpers/timing.js';
import { throughUntilError } from '../helpers/streams.js';

/** An exchange over a generator of `count` numbers that counts what was pulled and notes its end; `failAt` throws there. */
function counting(count: number, failAt?: number) {
  const state = { pulled: 0, finished: false, put: [] as string[], closed: false };
  async function* events(): AsyncGenerator<number> {
    try {
      for (let n = 0; n < count; n++) {
        if (n === failAt) throw new Error(`failed at ${n}`);
        state.pulled++;
        yield n;
      }
    } finally {
      state.finished = true;
    }
  }
  const exchange: Exchange<string, number> = { put: async (item) => void state.put.push(item), close: () => void (state.closed = true), events: events() };
  return { state, exchange };
}

t.test('exchangeStream: items go in with put and close; events are pulled one per read, so a paused reader stops the generator', async (t) => {
  const { state, exchange } = counting(1000);
  const stream = exchangeStream(exchange);
  stream.write('hello');
  stream.end();
  await settled(() => state.pulled);
  t.ok(state.pulled <= 2, `pulled ${state.pulled} while nobody read`);
  t.same(state.put, ['hello']);
  t.ok(state.closed);
  const out: number[] = [];
  for await (const n of stream) out.push(n);
  t.equal(out.length, 1000);
  t.ok(state.finished);
});

t.test('exchangeStream: a failure comes after every event made before it', async (t) => {
  const { exchange } = counting(10, 5);
  const { out, error } = await throughUntilError<number>(exchangeStream(exchange), []);
  t.same(out, [0, 1, 2, 3, 4]);
  t.match(error, { message: 'failed at 5' });
});

t.test('exchangeStream: once unheld aborts, events are pulled with nobody reading; a reader that leaves ends the generator', async (t) => {
  const controller = new AbortController();
  const unheld = counting(50);
  exchangeStream(unheld.exchange, { unheld: controller.signal });
  controller.abort();
  await settled(() => unheld.state.pulled);
  t.equal(unheld.state.pulled, 50, 'a cancelled run winds down to its end');
  const left = counting(1000);
  const stream = exchangeStream(left.exchange);
  stream.once('data', () => stream.destroy());
  await new Promise((resolve) => stream.once('close', resolve));
  await settled(() => left.state.pulled);
  t.ok(left.state.finished, 'the generator was ended');
  t.ok(left.state.pulled < 5);
});
