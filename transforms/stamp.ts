import type { Transform } from 'node:stream';
import { newRunId } from '../lib/protocol/ids.js';
import { stampEvent } from '../lib/protocol/stamp.js';
import type { Event, SchemaVersion } from '../lib/protocol/types.js';
import { createVersioner, resolveVersion, type VersionChoice } from '../lib/protocol/versions.js';
import { mapStream } from '../lib/streams.js';

/**
 * event → the event in the run's schema version, with `schemaVersion` and
 * `runId` (one run id per stage: one stage per run). The version (default 1)
 * is settled at the first event (a function is asked then); events the version
 * lacks are dropped (see createVersioner).
 */
export type StampOptions = {
  runId?: string;
  schemaVersion?: VersionChoice;
  /** Told the exit code of the run_end it writes (a version can change it: v2's interrupted is 130). */
  onRunEnd?: (exitCode: number) => void;
  /** Event types written even when the version lacks them (the text format shows reasoning to a person in version 1 too). */
  keep?: ReadonlySet<Event['type']>;
};

export function stamp(options: StampOptions = {}): Transform {
  const runId = options.runId ?? newRunId();
  let version: SchemaVersion | undefined;
  let inVersion: ((event: Event) => Event | undefined) | undefined;
  return mapStream((event: Event) => {
    version ??= resolveVersion(options.schemaVersion);
    const versioned = (inVersion ??= createVersioner(version, { keep: options.keep }))(event);
    if (versioned?.type === 'run_end') options.onRunEnd?.(versioned.exitCode);
    return versioned && stampEvent(versioned, runId, version);
  });
}
