import { ProviderError } from '../errors.js';

/**
 * One server-sent event longer than this is refused. The SDKs decode an event whole, in time that grows faster
 * than its size (10 MB took 14 s), and no real chunk comes near it.
 */
export const MAX_EVENT_BYTES = 16 * 1024 * 1024;

const NEWLINE = 10;
const CR = 13;

/** Where the pieces of a body go: on to its reader, or the failure that ends it. */
type Out = { enqueue(chunk: Uint8Array): void; error(reason: unknown): void };

/**
 * A response body passed on whole events at a time, with `onBytes` told of every piece as it arrives (the idle
 * clock counts bytes arriving, not events decoded), failing once one event (the lines up to a blank one) passes
 * `maxEventBytes`. An event arriving in many pieces is handed on in one: the SDKs' decoders join the pieces of
 * an event again at every piece, in time quadratic in its size.
 */
function eventBounds(provider: string, onBytes: (chunk: Uint8Array) => void, maxEventBytes: number): { transform(chunk: Uint8Array, out: Out): void; flush(out: Out): void } {
  /** The pieces of the event not ended yet, and its bytes up to its last newline; the bytes of the line after it. */
  let pending: Uint8Array[] = [];
  let event = 0;
  let line = 0;
  let lastByte = 0;
  const release = (controller: Out, pieces: Uint8Array[]) => {
    const whole = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
    if (whole.length > 0) controller.enqueue(whole);
  };
  return {
    transform(chunk, controller) {
      onBytes(chunk);
      /** Where the last event ending in this chunk ends. */
      let ended = 0;
      let tooBig = false;
      for (let from = 0, newline = chunk.indexOf(NEWLINE); ; newline = chunk.indexOf(NEWLINE, from)) {
        if (newline === -1) {
          line += chunk.length - from;
          break;
        }
        const endsWithCr = newline > from ? chunk[newline - 1] === CR : lastByte === CR;
        const length = line + newline - from;
        const blank = length - (endsWithCr ? 1 : 0) === 0;
        if (!blank && event + length > maxEventBytes) {
          tooBig = true;
          break;
        }
        event = blank ? 0 : event + length + 1;
        if (blank) ended = newline + 1;
        line = 0;
        from = newline + 1;
      }
      if (chunk.length > 0) lastByte = chunk[chunk.length - 1]!;
      if (tooBig || event + line > maxEventBytes) {
        pending = [];
        return controller.error(new ProviderError(`${provider} sent one stream event of more than ${maxEventBytes} bytes (${maxEventBytes / 1024 / 1024} MiB) without its end: refused, as no model's chunk is that large.`));
      }
      if (ended === 0) return void pending.push(chunk);
      release(controller, [...pending, chunk.subarray(0, ended)]);
      pending = ended < chunk.length ? [chunk.subarray(ended)] : [];
    },
    flush(controller) {
      release(controller, pending);
    },
  };
}

/**
 * `body` through eventBounds, read only as its reader reads: each read takes the body's next pieces until an event
 * is whole. Not a pipe, which runs on its own and, at the body's end, closes its streams in promise callbacks
 * that run ahead of the reader's last chunk (0.1-0.3 ms a chunk more, and a reply's last chunk later still).
 */
export function boundBody(body: ReadableStream<Uint8Array>, provider: string, onBytes: (chunk: Uint8Array) => void, maxEventBytes = MAX_EVENT_BYTES): ReadableStream<Uint8Array> {
  const bounds = eventBounds(provider, onBytes, maxEventBytes);
  const reader = body.getReader();
  let given = false;
  let failed = false;
  /** Where eventBounds hands its events (this stream's controller): made once, not at every read. */
  let out!: Out;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        out = {
          enqueue: (chunk) => void ((given = true), controller.enqueue(chunk)),
          error: (reason) => void ((failed = true), controller.error(reason)),
        };
      },
      async pull(controller) {
        for (given = false; !given && !failed; ) {
          const { done, value } = await reader.read();
          if (done) {
            bounds.flush(out);
            return failed ? undefined : controller.close();
          }
          bounds.transform(value, out);
        }
        if (failed) await reader.cancel().catch(() => {});
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

/** `fetch`, with each response body through boundBody. */
export function boundedFetch(provider: string, onBytes: (chunk: Uint8Array) => void, maxEventBytes?: number): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (!response.body) return response;
    const body = boundBody(response.body, provider, onBytes, maxEventBytes);
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
