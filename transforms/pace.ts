import { Transform } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';

/** Events pass through with `ms` between them, as a live run would space them (zero replay --delay). */
export function pace(ms: number): Transform {
  let first = true;
  return new Transform({
    objectMode: true,
    highWaterMark: 1,
    transform(event: unknown, _encoding, callback) {
      if (first || ms <= 0) {
        first = false;
        return callback(null, event);
      }
      sleep(ms).then(() => callback(null, event), callback);
    },
  });
}
