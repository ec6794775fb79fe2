/** The protocol's events (PROTOCOL §2–3) as TypeScript types; the JSON Schemas in ./schemas are the source of truth. */

export type InputEvent =
  | { schemaVersion: 1; type: 'message'; role: 'user'; content: string }
  | { schemaVersion: 1; type: 'prompt'; content: string };

export type SideEffect = 'read' | 'write' | 'shell' | 'network' | 'unknown';

export type RunStartEvent = { type: 'run_start'; sessionId?: string; cwd: string; provider: string; model: string; apiModel?: string };
export type TextEvent = { type: 'text'; delta: string };
export type ToolCallEvent = { type: 'tool_call'; id: string; name: string; args?: Record<string, unknown>; sideEffect?: SideEffect };
export type ToolResultEvent = { type: 'tool_result'; id: string; status: 'ok' | 'error'; output: string; truncated: boolean };
export type UsageEvent = { type: 'usage'; promptTokens?: number; completionTokens?: number; totalTokens?: number; costUsd?: number };
export type FinalEvent = { type: 'final'; text: string };
export type WarningEvent = { type: 'warning'; message: string };
export type ErrorEvent = { type: 'error'; code: string; message: string; recoverable: boolean };
export type RunEndEvent = { type: 'run_end'; status: 'success' | 'error'; exitCode: number };

/** An output event before the stamp stage adds schemaVersion and runId. */
export type Event =
  | RunStartEvent
  | TextEvent
  | ToolCallEvent
  | ToolResultEvent
  | UsageEvent
  | FinalEvent
  | WarningEvent
  | ErrorEvent
  | RunEndEvent;

export type Stamped<E extends Event = Event> = E & { schemaVersion: 1; runId: string };
export type OutputEvent = Stamped;

/** What the combine stage hands to the agent: the prompt the model receives. */
export type PromptRequest = { prompt: string };

/** A line of text framed by the split stage; lineNo counts physical lines from 1. */
export type Line = { line: string; lineNo: number };
/** A parsed JSON value and the line it came from. */
export type Parsed = { value: unknown; lineNo: number };

export const SCHEMA_VERSION = 1;
