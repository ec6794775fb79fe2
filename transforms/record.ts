import { Transform } from 'node:stream';
import type { OutputEvent } from '../lib/protocol/types.js';
import type { SessionRecorder } from '../lib/sessions/recorder.js';
import { isInItsVersion } from '../lib/protocol/versions.js';
import { OBJECT_HIGH_WATER_MARK } from '../lib/streams.js';

/**
 * Stamped events pass through unchanged and are stored in the run's session
 * (those of their version: the session holds the run's stream-json events);
 * run_end goes on only once the session holds everything, so a process that
 * exits right after it has lost nothing.
 */
export function record(recorder: SessionRecorder): Transform {
  return new Transform({
    objectMode: true,
    highWaterMark: OBJECT_HIGH_WATER_MARK,
    transform(event: OutputEvent, _encoding, callback) {
      if (isInItsVersion(event) && event.type !== 'heartbeat') recorder.record(event);
      if (event.type !== 'run_end') return callback(null, event);
      recorder.finish().then(() => callback(null, event), callback);
    },
  });
}
