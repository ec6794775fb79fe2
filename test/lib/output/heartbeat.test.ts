import t from 'tap';
import { withHeartbeat } from '../../../lib/output/heartbeat.js';
import type { Event } from '../../../lib/protocol/types.js';

/** A source whose next event comes when the test says so. */
function gated() {
  const waiting: ((event: Event | undefined) => void)[] = [];
  async function* events(): AsyncGenerator<Event> {
    for (;;) {
      const event = await new Promise<Event | undefined>((resolve) => waiting.push(resolve));
      if (!event) return;
      yield event;
    }
  }
  const give = async (event?: Event) => {
    while (waiting.length === 0) await new Promise((resolve) => setImmediate(resolve));
    waiting.shift()!(event);
  };
  return { events: events(), give };
}

// The beats' timers do not keep a process alive (in zero, what the run waits for does): this test's loop is held open.
const holder = setInterval(() => {}, 1000);
t.teardown(() => clearInterval(holder));

t.test('a beat for each pull the source does not answer in time, never before the first event, none after the last', async (t) => {
  const source = gated();
  const beating = withHeartbeat(source.events, 10);
  const first = beating.next();
  // the source is slow to start: run_start waits for the model, and nothing may come before it
  await new Promise((resolve) => setTimeout(resolve, 30));
  await source.give({ type: 'run_start', cwd: '/', provider: 'scripted', model: 'm' });
  t.match(await first, { value: { type: 'run_start' } });
  t.same((await beating.next()).value, { type: 'heartbeat' }, 'the source says nothing: a beat');
  t.same((await beating.next()).value, { type: 'heartbeat' }, 'one more beat per pull');
  const pending = beating.next();
  await source.give({ type: 'text', delta: 'hi' });
  t.same((await pending).value, { type: 'text', delta: 'hi' });
  const last = beating.next();
  await source.give({ type: 'run_end', status: 'success', exitCode: 0 });
  t.match(await last, { value: { type: 'run_end' } });
  const end = beating.next();
  await source.give();
  t.same(await end, { done: true, value: undefined });
});

t.test('nothing is made while nobody pulls: a paused reader gets no pile of beats', async (t) => {
  const source = gated();
  const beating = withHeartbeat(source.events, 5);
  const first = beating.next();
  await source.give({ type: 'run_start', cwd: '/', provider: 'scripted', model: 'm' });
  await first;
  // the reader pauses for many intervals, then asks again: one beat, not a backlog
  await new Promise((resolve) => setTimeout(resolve, 60));
  t.same((await beating.next()).value, { type: 'heartbeat' });
  const next = beating.next();
  await source.give({ type: 'final', text: 'done' });
  t.same((await next).value, { type: 'final', text: 'done' }, 'the event that came is next, with no beats queued before it');
  await beating.return(undefined);
});
