import { Transform } from 'node:stream';
import type { OutputEvent } from '../lib/protocol/types.js';
import type { SessionRecorder } from '../lib/sessions/recorder.js';
import type { TextSpool } from '../lib/files/text-spool.js';
import { isInItsVersion } from '../lib/protocol/versions.js';
import { stampEvent, stampStep } from '../lib/protocol/stamp.js';
import { toZeroError } from '../lib/errors.js';
import { failureEvents } from '../lib/protocol/failure.js';
import { applyStep } from '../lib/streams.js';

export type RecordOptions = {
  /** The run's cancellation: it cuts a spooled final's text as the journal stores it. */
  signal?: AbortSignal;
  /** Told the exit code of a run_end this stage writes in place of the one it was given. */
  onRunEnd?: (exitCode: number) => void;
};

/**
 * Stamped events pass through unchanged and are stored in the run's session
 * (those of their version: the session holds the run's stream-json events);
 * run_end goes on only once the session holds everything, so a process that
 * exits right after it has lost nothing; while the disk is behind, the next event waits for it. A session that cannot be written (a
 * full disk) gets a warning in the stream, before the event that found it out.
 *
 * A spooled final that only the journal reads (`-o text`) is stored before a successful run_end is: when the
 * run's signal cut it there, the run ends cancelled (`error` + `run_end`, in the session and the output) instead.
 */
export function record(recorder: SessionRecorder, options: RecordOptions = {}): Transform {
  /** The run's spooled final, until its run_end. */
  let spooled: TextSpool | undefined;
  /** The run_end, or what ends the run instead when the journal's copy of the final was cut. */
  const ending = async (runEnd: Extract<OutputEvent, { type: 'run_end' }>): Promise<OutputEvent[]> => {
    const spool = spooled;
    spooled = undefined;
    if (!spool || !options.signal || runEnd.status !== 'success') return [runEnd];
    await recorder.written();
    // made whole, or never read (a session that could not be written): the run_end as it came
    if (spool.whole !== false || !options.signal.aborted) return [runEnd];
    const stamp = stampStep({ runId: runEnd.runId, schemaVersion: runEnd.schemaVersion, onRunEnd: options.onRunEnd });
    return applyStep(stamp, failureEvents(toZeroError(options.signal.reason))) as OutputEvent[];
  };
  return new Transform({
    objectMode: true,
    highWaterMark: 2,
    transform(event: OutputEvent, _encoding, callback) {
      // a write that failed (a full disk) is said once, in the stream the client reads; the run goes on
      const warnAbout = (next: OutputEvent) => {
        const message = recorder.takeWarning();
        if (message) this.push(stampEvent({ type: 'warning', message }, next.runId, next.schemaVersion));
      };
      const recorded = (event: OutputEvent) => (isInItsVersion(event) && event.type !== 'heartbeat' ? recorder.record(event) : undefined);
      if (event.type === 'final') spooled = event.spool;
      if (event.type === 'run_end') {
        warnAbout(event);
        // run_end waits for everything
        ending(event)
          .then(async (last) => {
            for (const each of last) recorded(each);
            await recorder.finish();
            warnAbout(event);
            for (const each of last.slice(0, -1)) this.push(each);
            callback(null, last.at(-1));
          })
          .catch(callback);
        return;
      }
      const backlogged = recorded(event);
      warnAbout(event);
      if (!backlogged) return callback(null, event);
      // another event, while the disk is behind, waits for the backlog to be written
      backlogged.then(() => {
        warnAbout(event);
        callback(null, event);
      }, callback);
    },
  });
}
