import { Transform } from 'node:stream';
import type { OutputEvent } from '../lib/protocol/types.js';
import type { SessionRecorder } from '../lib/sessions/recorder.js';
import { isInItsVersion } from '../lib/protocol/versions.js';
import { stampEvent } from '../lib/protocol/stamp.js';
import { OBJECT_HIGH_WATER_MARK } from '../lib/streams.js';

/**
 * Stamped events pass through unchanged and are stored in the run's session
 * (those of their version: the session holds the run's stream-json events);
 * run_end goes on only once the session holds everything, so a process that
 * exits right after it has lost nothing; while the disk is behind, the next event waits for it. A session that cannot be written (a
 * full disk) gets a warning in the stream, before the event that found it out.
 */
export function record(recorder: SessionRecorder): Transform {
  return new Transform({
    objectMode: true,
    highWaterMark: OBJECT_HIGH_WATER_MARK,
    transform(event: OutputEvent, _encoding, callback) {
      // a write that failed (a full disk) is said once, in the stream the client reads; the run goes on
      const warnAbout = (next: OutputEvent) => {
        const message = recorder.takeWarning();
        if (message) this.push(stampEvent({ type: 'warning', message }, next.runId, next.schemaVersion));
      };
      const backlogged = isInItsVersion(event) && event.type !== 'heartbeat' ? recorder.record(event) : undefined;
      warnAbout(event);
      if (event.type !== 'run_end' && !backlogged) return callback(null, event);
      // run_end waits for everything; another event, while the disk is behind, for the backlog to be written
      (event.type === 'run_end' ? recorder.finish() : backlogged!).then(() => {
        warnAbout(event);
        callback(null, event);
      }, callback);
    },
  });
}
