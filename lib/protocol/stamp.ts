import { SCHEMA_VERSION, type Event, type SchemaVersion, type Stamped } from './types.js';
import { newRunId } from './ids.js';
import { createVersioner, resolveVersion, type VersionChoice } from './versions.js';
import type { Step } from '../streams.js';

/**
 * Adds `schemaVersion` and `runId`, in the order clients read them: schemaVersion,
 * type, runId, then the rest. An event stamped before is stamped anew.
 */
export function stampEvent<E extends Event>(event: E | Stamped<E>, runId: string, version: SchemaVersion = SCHEMA_VERSION): Stamped<E> {
  // one object, filled in order (a rest-and-spread pair would build two): every event of a run passes here
  const stamped: Record<string, unknown> = { schemaVersion: version, type: event.type, runId };
  for (const key in event) {
    if (key !== 'type' && key !== 'schemaVersion' && key !== 'runId' && Object.hasOwn(event, key)) stamped[key] = (event as Record<string, unknown>)[key];
  }
  return stamped as unknown as Stamped<E>;
}

export type StampOptions = {
  runId?: string;
  schemaVersion?: VersionChoice;
  /** Told the exit code of the run_end it writes (a version can change it: v2's interrupted is 130). */
  onRunEnd?: (exitCode: number) => void;
  /** Event types written even when the version lacks them (the text format shows reasoning to a person in version 1 too). */
  keep?: ReadonlySet<Event['type']>;
  /** --permission-prompt stdio: permission_request and permission_decision are written in version 1 too. */
  permissionEvents?: boolean;
};

/**
 * The stamp stage's step: each event in the run's schema version, with `schemaVersion` and `runId`
 * (one run id per step: one step per run). The version (default 1) is settled at the first event
 * (a function is asked then); events the version lacks are dropped (see createVersioner).
 * An event stamped already (a runId and a schemaVersion) belongs to its run: it passes as it is, so a log of
 * several runs keeps them (to give a recorded run a new id, `zero replay --new-run-id`). An event with a runId of
 * its own and no schemaVersion (a program's own run) keeps its runId and is written in the run's version.
 */
export function stampStep(options: StampOptions = {}): Step<Event, Stamped> {
  const runId = options.runId ?? newRunId();
  let version: SchemaVersion | undefined;
  let inVersion: ((event: Event) => Event | undefined) | undefined;
  return {
    write(event, emit) {
      const own = (event as Partial<Stamped>).runId;
      if (typeof own === 'string' && (event as Partial<Stamped>).schemaVersion !== undefined) {
        if (event.type === 'run_end') options.onRunEnd?.(event.exitCode);
        return emit(event as Stamped);
      }
      version ??= resolveVersion(options.schemaVersion);
      const versioned = (inVersion ??= createVersioner(version, { keep: options.keep, permissionEvents: options.permissionEvents }))(event);
      if (!versioned) return;
      if (versioned.type === 'run_end') options.onRunEnd?.(versioned.exitCode);
      emit(stampEvent(versioned, typeof own === 'string' ? own : runId, version));
    },
  };
}
