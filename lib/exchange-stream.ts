import { Duplex } from 'node:stream';

/** What a pulled stage is: items go in with `put` (resolving once it can take the next), `close` ends the input, events come out of `events`. */
export type Exchange<In, Out> = { put(item: In): Promise<void>; close(): void; events: AsyncIterator<Out> };

/**
 * An exchange as a Duplex, the way an async generator becomes a stage: the readable side holds at most one
 * event, and the next is pulled only when the reader asks for it, so a reader that stops stops the generator
 * (and the provider behind it). Once `unheld` aborts (a cancelled run winding down), events are pulled without
 * waiting for the reader: the generator must reach its end. A failure never drops an event already produced:
 * the stage errors only once the reader has taken them all. A reader that goes away ends the generator at its
 * next event.
 */
export function exchangeStream<In, Out>(exchange: Exchange<In, Out>, options: { unheld?: AbortSignal } = {}): Duplex {
  const { events } = exchange;
  let wanted = false;
  let pumping = false;
  let wake: (() => void) | undefined;
  const woken = () => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  const waitFor = async (ready: () => boolean) => {
    while (!ready()) await new Promise<void>((resolve) => (wake = resolve));
  };
  const pump = async () => {
    pumping = true;
    try {
      for (;;) {
        await waitFor(() => wanted || stream.destroyed || Boolean(options.unheld?.aborted));
        if (stream.destroyed) return void (await events.return?.());
        const next = await events.next();
        if (next.done) return void stream.push(null);
        if (stream.destroyed) continue;
        wanted = stream.push(next.value);
      }
    } catch (error) {
      await waitFor(() => stream.readableLength === 0 || stream.destroyed);
      stream.destroy(error as Error);
    }
  };
  // a cancelled run winds down whether or not anyone reads: it fails with the reason once it has
  options.unheld?.addEventListener('abort', () => (pumping ? woken() : void pump()), { once: true });
  const stream = new Duplex({
    readableObjectMode: true,
    writableObjectMode: true,
    readableHighWaterMark: 1,
    writableHighWaterMark: 1,
    write(item: In, _encoding, callback) {
      exchange.put(item).then(() => callback(), callback);
    },
    final(callback) {
      exchange.close();
      callback();
    },
    read() {
      wanted = true;
      if (!pumping) void pump();
      woken();
    },
    destroy(error, callback) {
      woken();
      callback(error);
    },
  });
  return stream;
}
