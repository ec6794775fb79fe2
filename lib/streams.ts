import { Transform } from 'node:stream';

export const OBJECT_HIGH_WATER_MARK = 16;

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
  return new Transform({
    writableObjectMode: true,
    readableObjectMode,
    writableHighWaterMark: OBJECT_HIGH_WATER_MARK,
    readableHighWaterMark: readableObjectMode ? OBJECT_HIGH_WATER_MARK : undefined,
    transform(chunk: In, _encoding, callback) {
      let out: Out[];
      try {
        out = map(chunk);
      } catch (error) {
        callback(error as Error);
        return;
      }
      for (const item of out) this.push(item);
      callback();
    },
    flush(callback) {
      try {
        for (const out of flush?.() ?? []) this.push(out);
      } catch (error) {
        callback(error as Error);
        return;
      }
      callback();
    },
  });
}
