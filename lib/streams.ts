import { Duplex, Transform, type Readable, type Writable } from 'node:stream';

export const OBJECT_HIGH_WATER_MARK = 16;

/** Where a step hands on what it makes. */
export type Emit<Out> = (item: Out) => void;

/**
 * A stage's logic as a plain, synchronous function (docs/protocol.md's stages,
 * DESIGN: the core of each stage lives in lib/): each item in may give any
 * number of items out, handed to `emit` as they are made; `end` gives what is
 * left once the input is over. A throw fails the stage with that error.
 */
export type Step<In, Out> = {
  write(item: In, emit: Emit<Out>): void;
  end?(emit: Emit<Out>): void;
};

/** A step of a function: undefined drops the item. */
export function mapStep<In, Out>(map: (item: In) => Out | undefined): Step<In, Out> {
  return {
    write(item, emit) {
      const out = map(item);
      if (out !== undefined) emit(out);
    },
  };
}

/**
 * Steps joined into one: an item goes through all of them, depth first, before
 * the next is taken, so whatever was made before a failure has gone all the
 * way. Like stream-chain's fused functions: a chain of steps costs one stream.
 */
export function composeSteps<In, Out>(steps: Step<any, any>[]): Step<In, Out> {
  let linkedTo: Emit<Out> | undefined;
  let heads: Emit<unknown>[] = [];
  /** heads[i] feeds step i; the last one is the caller's emit. Built once per emit, since a stream passes the same one. */
  const link = (emit: Emit<Out>) => {
    if (linkedTo === emit) return heads;
    heads = new Array(steps.length + 1);
    heads[steps.length] = emit as Emit<unknown>;
    for (let index = steps.length - 1; index >= 0; index--) {
      const step = steps[index]!;
      const next = heads[index + 1]!;
      heads[index] = (item) => step.write(item, next);
    }
    linkedTo = emit;
    return heads;
  };
  return {
    write(item, emit) {
      link(emit)[0]!(item);
    },
    end(emit) {
      const linked = link(emit);
      steps.forEach((step, index) => step.end?.(linked[index + 1]!));
    },
  };
}

/** A step over a whole list: everything it makes, the end's included (for tests, and callers that have all the items). */
export function applyStep<In, Out>(step: Step<In, Out>, items: Iterable<In>): Out[] {
  const out: Out[] = [];
  const emit: Emit<Out> = (item) => void out.push(item);
  for (const item of items) step.write(item, emit);
  step.end?.(emit);
  return out;
}

export type StepStreamOptions = {
  /**
   * Objects out (default); false: the step makes strings (or Buffers), written once per input chunk, joined, or an
   * Iterable of strings (a spooled answer's line), whose parts are pulled only as the reader takes them.
   */
  readableObjectMode?: boolean;
  /** Objects in (default); false: bytes (or strings) in. */
  writableObjectMode?: boolean;
  /** How many objects in are buffered (default OBJECT_HIGH_WATER_MARK): 1 for chunks of bytes written as objects. */
  writableHighWaterMark?: number;
  /** How many objects out are buffered, in object mode (default OBJECT_HIGH_WATER_MARK). */
  readableHighWaterMark?: number;
};

/** How long pulling a huge line's parts (a spooled final, redacted as it is pulled) may keep the event loop from running. */
const BREATHE_MS = 20;

/**
 * For a loop that pulls parts whose making takes time: each call gives undefined while less than BREATHE_MS has
 * gone since the event loop last ran, else a promise that resolves once it has (setImmediate: a signal, a timer,
 * other I/O get their turn).
 */
export function breather(): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since < BREATHE_MS) return undefined;
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        since = performance.now();
        resolve();
      }),
    );
  };
}

/** Room to write a batch in, kept between batches up to this size. */
const KEPT_ROOM = 1 << 20;
let room = Buffer.allocUnsafe(0);

/**
 * Strings (as UTF-8) and bytes (a line that is not valid UTF-8, kept as it came) as one Buffer, each written
 * straight into it. Not a joined string: one character past Latin-1 in any line would make all of it two bytes a
 * character, to be copied and encoded again.
 */
export function concatBytes(items: readonly (string | Buffer)[]): Buffer {
  if (items.length === 1) return typeof items[0] === 'string' ? Buffer.from(items[0]) : items[0]!;
  let most = 0;
  // at most 3 bytes for each UTF-16 unit (a surrogate pair, 2 units, is 4); a long string is counted exactly, not to hold 3× its size
  for (const item of items) most += typeof item !== 'string' ? item.length : item.length > KEPT_ROOM / 16 ? Buffer.byteLength(item) : item.length * 3;
  const into = most <= room.length ? room : Buffer.allocUnsafe(most);
  if (most <= KEPT_ROOM) room = into;
  let at = 0;
  for (const item of items) at += typeof item === 'string' ? into.write(item, at) : item.copy(into, at);
  // the kept room is written over by the next batch; a room of its own is given as it is, unless mostly unused
  return into !== room && at * 2 >= into.length ? into.subarray(0, at) : Buffer.from(into.subarray(0, at));
}

/**
 * A step as a Transform. In object mode each item out is pushed as it comes;
 * in byte mode what one input chunk gave is pushed as one Buffer, so a chunk
 * of a thousand lines is one write downstream, not a thousand (up to 1 MiB:
 * past it the Buffer goes on and the next begins).
 */
export function stepStream<In, Out>(step: Step<In, Out>, options: StepStreamOptions = {}): Transform {
  const { readableObjectMode = true, writableObjectMode = true, writableHighWaterMark = OBJECT_HIGH_WATER_MARK, readableHighWaterMark = OBJECT_HIGH_WATER_MARK } = options;
  let batch: (string | Buffer)[] = [];
  let batchLength = 0;
  let stream: Transform;
  const pushBatch = () => {
    if (batch.length === 0) return;
    const out = concatBytes(batch);
    batch = [];
    batchLength = 0;
    if (out.length) stream.push(out);
  };
  // a batch past KEPT_ROOM goes on at once: a huge item emitted in parts is never joined whole
  const addToBatch = (item: string | Buffer) => {
    batch.push(item);
    batchLength += item.length;
    if (batchLength >= KEPT_ROOM) pushBatch();
  };
  /** What an input chunk gave from its first Iterable on, written once the step is done with the chunk. */
  let pulled: (string | Buffer | Iterable<string>)[] | undefined;
  const emitBytes = (item: string | Buffer | Iterable<string>) => {
    if (pulled || (typeof item !== 'string' && !Buffer.isBuffer(item))) (pulled ??= []).push(item);
    else addToBatch(item);
  };
  const emit: Emit<Out> = readableObjectMode ? (item) => void stream.push(item) : (item) => emitBytes(item as unknown as string | Buffer);
  /** Waiting to fail until what was pushed has been read: set while a failure waits. */
  let onRead: (() => void) | undefined;
  /** Waiting for the reader to take what was pushed, before more of an Iterable is pulled. */
  let onTaken: (() => void) | undefined;
  const taken = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        onTaken = undefined;
        stream.off('close', done);
        resolve();
      };
      onTaken = done;
      stream.once('close', done);
    });
  const pull = async (items: (string | Buffer | Iterable<string>)[]) => {
    const breathe = breather();
    for (const item of items) {
      for (const part of typeof item === 'string' || Buffer.isBuffer(item) ? [item] : item) {
        addToBatch(part);
        while (stream.readableLength >= stream.readableHighWaterMark && !stream.destroyed) await taken();
        const pause = breathe();
        // what was made while the event loop waited goes out before it runs: the reader gets it at once
        if (pause) {
          pushBatch();
          await pause;
        }
        if (stream.destroyed) return;
      }
    }
    pushBatch();
  };
  // A failure destroys the stream, and a destroyed stream drops what it still holds: what the step made before the
  // throw would be lost. So the failure waits until the reader has taken everything.
  const failOnceRead = (error: Error, callback: (error?: Error | null) => void) => {
    const check = () => {
      if (stream.readableLength > 0 && !stream.destroyed) return;
      onRead = undefined;
      stream.off('close', check);
      callback(error);
    };
    onRead = check;
    stream.once('close', check);
    check();
  };
  const run = (work: () => void, callback: (error?: Error | null) => void) => {
    try {
      work();
    } catch (error) {
      pushBatch();
      pulled = undefined;
      return failOnceRead(error as Error, callback);
    }
    pushBatch();
    if (!pulled) return callback();
    const items = pulled;
    pulled = undefined;
    pull(items).then(() => callback(), (error: Error) => {
      pushBatch();
      failOnceRead(error, callback);
    });
  };
  stream = new Transform({
    writableObjectMode,
    readableObjectMode,
    writableHighWaterMark: writableObjectMode ? writableHighWaterMark : undefined,
    readableHighWaterMark: readableObjectMode ? readableHighWaterMark : undefined,
    transform(chunk: In, _encoding, callback) {
      run(() => step.write(chunk, emit), callback);
    },
    flush(callback) {
      run(() => step.end?.(emit), callback);
    },
  });
  // Every way of reading (pipe, 'data', for await) goes through read().
  const read = stream.read.bind(stream);
  stream.read = (size?: number) => {
    const chunk = read(size);
    onRead?.();
    onTaken?.();
    return chunk;
  };
  return stream;
}

type StageOptions<Out> = { flush?: () => Out[]; readableObjectMode?: boolean };

/**
 * An object-mode Transform that maps each chunk through a plain function.
 * `undefined` drops the chunk; a throw fails the stream with that error.
 */
export function mapStream<In, Out>(map: (chunk: In) => Out | undefined, options: StageOptions<Out> = {}): Transform {
  return flatMapStream((chunk: In) => {
    const out = map(chunk);
    return out === undefined ? [] : [out];
  }, options);
}

/** Like mapStream, for a function that turns each chunk into any number of chunks. */
export function flatMapStream<In, Out>(map: (chunk: In) => Out[], options: StageOptions<Out> = {}): Transform {
  const { flush, readableObjectMode = true } = options;
  const step: Step<In, Out> = {
    write(item, emit) {
      for (const out of map(item)) emit(out);
    },
    end(emit) {
      for (const out of flush?.() ?? []) emit(out);
    },
  };
  return stepStream(step, { readableObjectMode });
}

/**
 * One Duplex over a writable and a readable that fail separately: once the
 * writable side has failed (bad input), further input is discarded while the
 * readable side still delivers the error report.
 */
export function joinDuplex(writable: Writable, readable: Readable, onDestroy: () => void = () => (writable.destroy(), readable.destroy())): Duplex {
  const joined = new Duplex({
    readableObjectMode: readable.readableObjectMode,
    writableObjectMode: writable.writableObjectMode,
    write(chunk, encoding, callback) {
      if (writable.destroyed || writable.writableEnded) return callback();
      if (writable.write(chunk, encoding)) return callback();
      const done = () => {
        writable.off('drain', done).off('close', done);
        callback();
      };
      writable.on('drain', done).on('close', done);
    },
    final(callback) {
      if (!writable.destroyed && !writable.writableEnded) writable.end();
      callback();
    },
    read() {
      readable.resume();
    },
    // a reader that goes away: by default both sides go with it, nothing keeps running for output nobody reads
    destroy(error, callback) {
      onDestroy();
      callback(error);
    },
  });
  readable.on('data', (chunk) => {
    // once destroyed, what still comes is let go (an onDestroy that lets the readable finish)
    if (!joined.push(chunk) && !joined.destroyed) readable.pause();
  });
  readable.on('end', () => joined.push(null));
  readable.on('error', (error) => joined.destroy(error));
  writable.on('error', () => {
    // reported on the readable side as an error event
  });
  return joined;
}
