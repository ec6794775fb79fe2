import type { Event } from '../protocol/types.js';

/**
 * The events as they come, and a `heartbeat` each time the next one has not come for `intervalMs` (--heartbeat),
 * so a client can tell slow (a long tool, a slow model) from hung. Beats start after the first event (run_start
 * comes first) and end with the last (run_end). A beat is made only while the reader asks for the next event, as
 * every event is: behind a reader that stops reading, beats stop too, and the timer never keeps the process alive.
 */
export async function* withHeartbeat(events: AsyncIterable<Event>, intervalMs: number): AsyncGenerator<Event> {
  const iterator = events[Symbol.asyncIterator]();
  let started = false;
  try {
    for (;;) {
      const next = iterator.next();
      let result: IteratorResult<Event> | typeof BEAT = started ? await beatsUntil(next) : await next;
      while (result === BEAT) {
        yield { type: 'heartbeat' };
        result = await beatsUntil(next);
      }
      if (result.done) return;
      // nothing beats after run_end, however long the source takes to end
      started = result.value.type !== 'run_end';
      yield result.value;
    }
  } finally {
    // not awaited: the source may be waiting for its own next event, and the reader that left must not wait for it
    void iterator.return?.()?.catch(() => {});
  }

  function beatsUntil(next: Promise<IteratorResult<Event>>): Promise<IteratorResult<Event> | typeof BEAT> {
    let timer: NodeJS.Timeout | undefined;
    const beat = new Promise<typeof BEAT>((resolve) => (timer = setTimeout(resolve, intervalMs, BEAT)).unref());
    return Promise.race([next, beat]).finally(() => clearTimeout(timer));
  }
}

const BEAT = Symbol('beat');
