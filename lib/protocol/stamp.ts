import { SCHEMA_VERSION, type Event, type Stamped } from './types.js';

/** Adds `schemaVersion` and `runId`, in the order clients read them: schemaVersion, type, runId, then the rest. */
export function stampEvent<E extends Event>(event: E, runId: string): Stamped<E> {
  const { type, ...rest } = event;
  return { schemaVersion: SCHEMA_VERSION, type, runId, ...rest } as unknown as Stamped<E>;
}
