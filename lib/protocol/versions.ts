import type { Event, SchemaVersion } from './types.js';

/**
 * The event types version 1 lacks (docs/protocol.md §8). Its schema has the permission events, in version 2's shape,
 * but they are written only with --permission-prompt stdio (`permissionEvents`): a client that answers them asked for them.
 */
const NOT_IN_VERSION_1: ReadonlySet<string> = new Set(['reasoning', 'checkpoint']);

/** Whether a stamped event is part of its own schema version (a kept one, written for a human reader only, is not). */
export const isInItsVersion = (event: { type: string; schemaVersion: SchemaVersion }): boolean => event.schemaVersion === 2 || !NOT_IN_VERSION_1.has(event.type);

/** A fixed version, or one learned late (from the client's input events) and asked for when the first event is written. */
export type VersionChoice = SchemaVersion | (() => SchemaVersion);

export const resolveVersion = (choice: VersionChoice | undefined): SchemaVersion => (typeof choice === 'function' ? choice() : choice ?? 1);

/** Version 2's ending of a cancelled run (docs/protocol.md §3.4): one code and exit status for every signal. */
const INTERRUPTED = { code: 'interrupted', message: 'run cancelled by signal', exitCode: 130 } as const;

/** The errors of a run stopped by a limit it was given (the turns, a budget, the deadline, the answer's schema): version 2's `incomplete`. */
const INCOMPLETE: ReadonlySet<string> = new Set(['max_turns', 'budget_exceeded', 'timeout', 'invalid_output']);

/**
 * The run's events in one schema version: a function per run (it remembers the
 * last error, which decides version 2's run_end). Events are built in the
 * version 2 shape with version 1's error codes (`cancelled`, `max_turns`);
 * version 1 drops what it lacks (`reasoning`, `checkpoint`, permission events unless asked for,
 * the tool_result fields past `truncated`), version 2 renames the endings, writes every error `recoverable: false`,
 * and names each tool_result after its tool_call.
 * undefined: the event is not written in this version.
 */
export function createVersioner(version: SchemaVersion, options: { keep?: ReadonlySet<Event['type']>; permissionEvents?: boolean } = {}): (event: Event) => Event | undefined {
  let lastError: string | undefined;
  if (version === 1) {
    return (event) => {
      switch (event.type) {
        case 'permission_request':
        case 'permission_decision':
          if (options.permissionEvents) return event;
        // falls through
        case 'reasoning':
        case 'checkpoint':
          // kept: stamped in version 1 all the same, for the text format's reader; never recorded (isInItsVersion)
          return options.keep?.has(event.type) ? event : undefined;
        case 'tool_result': {
          const { id, status, output, truncated } = event;
          return { type: 'tool_result', id, status, output, truncated };
        }
        case 'tool_call':
          return event.sideEffect === 'none' ? { ...event, sideEffect: 'unknown' } : event;
        case 'final':
          // a spooled answer goes on in its spool (lib/files/text-spool.ts), which the JSON line writes as `text`
          return { type: 'final', text: event.text, ...(event.spool ? { spool: event.spool } : {}) };
        default:
          return event;
      }
    };
  }
  const toolNames = new Map<string, string>();
  return (event) => {
    switch (event.type) {
      case 'tool_call':
        toolNames.set(event.id, event.name);
        return event;
      case 'tool_result': {
        const name = event.name ?? toolNames.get(event.id) ?? 'unknown';
        toolNames.delete(event.id);
        const { type, id, ...rest } = event;
        return { type, id, name, ...rest };
      }
      case 'error':
        // Zero writes every version 2 error with recoverable: false (a retry is the client's call, whatever the cause)
        lastError = event.code;
        if (event.code === 'cancelled') return { ...event, code: INTERRUPTED.code, message: INTERRUPTED.message, recoverable: false };
        if (event.code === 'max_turns') return { ...event, code: 'incomplete', recoverable: false };
        return { ...event, recoverable: false };
      case 'run_end':
        // 141: stdout's reader is gone, nobody reads this; the session keeps the code the process exits with
        if (lastError === 'cancelled') return { type: 'run_end', status: 'interrupted', exitCode: event.exitCode === 141 ? 141 : INTERRUPTED.exitCode };
        if (lastError !== undefined && INCOMPLETE.has(lastError)) return { type: 'run_end', status: 'incomplete', exitCode: 4 };
        return event;
      default:
        return event;
    }
  };
}
