import { SCHEMA_VERSION, type Event, type SchemaVersion, type Stamped } from './types.js';

/**
 * Adds `schemaVersion` and `runId`, in the order clients read them: schemaVersion,
 * type, runId, then the rest. An event stamped before is stamped anew.
 */
export function stampEvent<E extends Event>(event: E | Stamped<E>, runId: string, version: SchemaVersion = SCHEMA_VERSION): Stamped<E> {
  const { type, schemaVersion: _schemaVersion, runId: _runId, ...rest } = event as Stamped<E>;
  return { schemaVersion: version, type, runId, ...rest } as unknown as Stamped<E>;
}
