import { Transform } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { UsageError } from '../errors.js';
import { schemaVersionOf } from '../protocol/schema-version.js';
import type { OutputEvent, Parsed, SchemaVersion } from '../protocol/types.js';
import { OBJECT_HIGH_WATER_MARK } from '../streams.js';
import type { LogItem } from './framing.js';

export type RunPick = {
  /** The run to replay (default: the first run of the log). */
  runId?: string;
  /** The replayed run's id, once known. */
  readonly chosen: string | undefined;
  /** run_end's exit code, once it has gone by. */
  readonly exitCode: number | undefined;
  /** The replayed run's schema version (of its first line with version 1 or 2), once known. */
  readonly schemaVersion: SchemaVersion | undefined;
};

/**
 * LogItems → `{ value, lineNo }` of one run, for the validate stage: the run
 * asked for, else the first one; lines of other runs, and anything after the
 * run's run_end, are skipped. A line that is not JSON inside the run is a usage
 * error; a run that is missing or never ends is one too, at the end.
 */
export function pickRun(runId?: string): { stream: Transform; pick: RunPick } {
  const state = { runId, chosen: runId as string | undefined, exitCode: undefined as number | undefined, schemaVersion: undefined as SchemaVersion | undefined, started: false, ended: false };
  const stream = new Transform({
    objectMode: true,
    highWaterMark: OBJECT_HIGH_WATER_MARK,
    transform(item: LogItem, _encoding, callback) {
      if (state.ended) return callback();
      if ('problem' in item) return callback(new UsageError(`Invalid recorded event at line ${item.lineNo}: ${item.problem}.`));
      const value = item.value as Record<string, unknown> | null;
      const id = value && typeof value === 'object' && typeof value.runId === 'string' ? value.runId : undefined;
      if (state.chosen === undefined) state.chosen = id;
      if (state.started && id !== state.chosen) return callback();
      if (!state.started && id !== state.chosen) return callback();
      state.started = true;
      state.schemaVersion ??= schemaVersionOf(value);
      if (value?.type === 'run_end') {
        state.ended = true;
        if (typeof value.exitCode === 'number') state.exitCode = value.exitCode;
      }
      callback(null, { value: item.value, lineNo: item.lineNo } satisfies Parsed);
    },
    flush(callback) {
      if (!state.started) return callback(new UsageError(runId ? `No run ${runId} in the log.` : 'No recorded run in the log.'));
      if (!state.ended) return callback(new UsageError(`The recorded run ${state.chosen} has no run_end: the log is incomplete.`));
      callback();
    },
  });
  return {
    stream,
    pick: {
      runId,
      get chosen() {
        return state.chosen;
      },
      get exitCode() {
        return state.exitCode;
      },
      get schemaVersion() {
        return state.schemaVersion;
      },
    },
  };
}

/** Events pass through with `ms` between them, as a live run would space them. */
export function pace(ms: number): Transform {
  let first = true;
  return new Transform({
    objectMode: true,
    highWaterMark: 1,
    transform(event: OutputEvent, _encoding, callback) {
      if (first || ms <= 0) {
        first = false;
        return callback(null, event);
      }
      sleep(ms).then(() => callback(null, event), callback);
    },
  });
}
