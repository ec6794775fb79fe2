import { Transform } from 'node:stream';

export const OBJECT_HIGH_WATER_MARK = 16;

/**
 * An object-mode Transform that maps each chunk through a plain function.
 * `undefined` drops the chunk; a throw fails the stream with that error.
 */
export function mapStream<In, Out>(map: (chunk: In) => Out | undefined, options: { flush?: () => Out[]; readableObjectMode?: boolean } = {}): Transform {
  const { flush, readableObjectMode = true } = options;
  return new Transform({
    writableObjectMode: true,
    readableObjectMode,
    writableHighWaterMark: OBJECT_HIGH_WATER_MARK,
    readableHighWaterMark: readableObjectMode ? OBJECT_HIGH_WATER_MARK : undefined,
    transform(chunk: In, _encoding, callback) {
      let out: Out | undefined;
      try {
        out = map(chunk);
      } catch (error) {
        callback(error as Error);
        return;
      }
      callback(null, out);
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
