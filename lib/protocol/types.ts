/**
 * The protocol's events (docs/protocol.md §2–3, §8) as TypeScript types; the
 * JSON Schemas in ./schemas are the source of truth. Internally every event has
 * the schema version 2 shape (a superset of version 1); toSchemaVersion
 * (lib/protocol/versions.ts) makes the version-1 form.
 */
import type { TextSpool } from '../files/text-spool.js';

export type SchemaVersion = 1 | 2;
export const SCHEMA_VERSIONS: readonly SchemaVersion[] = [1, 2];

/** An image sent with a version 2 `message`: `data` is base64 (at most 10 MiB decoded). */
export type ImageInput = { mediaType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp'; data: string };

export type InputEvent =
  | { schemaVersion: 1; type: 'message'; role: 'user'; content: string }
  | { schemaVersion: 1; type: 'prompt'; content: string }
  | { schemaVersion: 2; type: 'message'; role: 'user'; content: string; images?: ImageInput[] }
  | { schemaVersion: 2; type: 'prompt'; content: string };

/** Every input event a conversation (--multi-turn) takes: what the user says, and the control events. */
export type ConversationEvent = InputEvent | ControlEvent;

/**
 * The input events that steer a conversation (`--multi-turn`, docs/protocol.md §12) rather than say something to the
 * model: stop the turn going on, or answer a `permission_request` (`--permission-prompt stdio`).
 */
export type ControlEvent =
  | { schemaVersion: SchemaVersion; type: 'interrupt' }
  | { schemaVersion: SchemaVersion; type: 'permission_response'; id: string; decision: 'allow' | 'deny' | 'allow_always'; reason?: string };

export const CONTROL_EVENT_TYPES: ReadonlySet<string> = new Set(['interrupt', 'permission_response']);

/** `none` is version 2 only. */
export type SideEffect = 'read' | 'write' | 'shell' | 'network' | 'none' | 'unknown';

/** `provider` and `model` are absent only in a log of Zero Go's `--list-tools` (zero always writes them). */
export type RunStartEvent = { type: 'run_start'; sessionId?: string; cwd: string; provider?: string; model?: string; apiModel?: string };
export type TextEvent = { type: 'text'; delta: string };
/** `args` other than an object: only in Zero Go's logs, which write the model's arguments as they came when they are not a JSON object. */
export type ToolCallEvent = { type: 'tool_call'; id: string; name: string; args?: Record<string, unknown> | unknown[] | string | number | boolean; sideEffect?: SideEffect };
/** `name`, `changedFiles` and the rest past `truncated` are version 2 only. */
export type ToolResultEvent = {
  type: 'tool_result';
  id: string;
  name?: string;
  status: 'ok' | 'error';
  /** Absent in Zero Go's logs when empty. */
  output?: string;
  truncated: boolean;
  redacted?: boolean;
  changedFiles?: string[];
  display?: { summary?: string; kind?: string };
  meta?: Record<string, string>;
};
/** Version 2 only: the model's reasoning, streamed apart from the answer (never part of `text` or `final`). */
export type ReasoningEvent = { type: 'reasoning'; delta: string };
/** Version 2 only: written before a tool that changes files runs. */
/** `files` is absent in Zero Go's logs when empty. */
export type CheckpointEvent = { type: 'checkpoint'; checkpoint: { sequence: number; tool: string; files?: string[] } };
/** `spec-draft` and `member-auto`: Zero Go's modes, in its logs only. */
export type PermissionMode = 'auto' | 'ask' | 'unsafe' | 'spec-draft' | 'member-auto';
/** The side effects a permission event names: a tool's, and Zero Go's local and out-of-workspace ones. */
export type PermissionSideEffect = SideEffect | 'local_control' | 'local_browser' | 'local_desktop' | 'local_terminal' | 'out_of_workspace';
export type PermissionRisk = { level: string; categories?: string[]; reason?: string };
/** A stored permission a call matched (Zero Go's grants; zero writes none). */
export type PermissionGrant = { toolName: string; scope?: string; scopeKind?: string; decision: 'allow' | 'deny'; approvedAt?: string; reason?: string; session?: boolean };
/** The fields both permission events may carry besides their own, as Zero Go writes them. */
type PermissionDetails = {
  sessionId?: string;
  autonomy?: string;
  risk?: PermissionRisk;
  block?: PermissionBlock;
  grantMatched?: boolean;
  grant?: PermissionGrant;
};
export type PermissionBlock = {
  code: 'denied_permission' | 'outside_workspace' | 'symlink_traversal' | 'network' | 'destructive_command' | 'persistent_deny' | 'denied' | 'context_canceled';
  toolName?: string;
  action?: string;
  risk?: string | PermissionRisk;
  path?: string;
  reason: string;
  recoverable?: boolean;
};
/** Version 2 only: a tool call that needs a permission it was not given; headless, a denied tool_result follows. */
export type PermissionRequestEvent = {
  type: 'permission_request';
  id: string;
  name: string;
  action: 'prompt';
  permission: string;
  permissionMode: PermissionMode;
  sideEffect: PermissionSideEffect;
  /** Absent in Zero Go's logs when empty. */
  reason?: string;
  permissionGranted?: boolean;
  decisionReason?: string;
} & PermissionDetails;
/** Version 2 only. */
export type PermissionDecisionEvent = {
  type: 'permission_decision';
  id: string;
  name: string;
  action: 'allow' | 'deny' | 'cancel';
  permission: string;
  permissionGranted: boolean;
  /** Absent in Zero Go's logs when empty. */
  decisionReason?: string;
  permissionMode?: PermissionMode;
  sideEffect?: PermissionSideEffect;
  reason?: string;
} & PermissionDetails;
export type UsageEvent = { type: 'usage'; promptTokens?: number; completionTokens?: number; totalTokens?: number; costUsd?: number };
/**
 * `text` is absent in Zero Go's logs when the answer is empty; `structured` (version 2 only, with --output-schema) is the answer's JSON value, `text` its JSON text.
 * `spool` only in a run that asked for it (`spoolAfterChars`, docs/api.md): a long answer's text is there, read back in chunks, and `text` is ''.
 * It is never written as a field: a JSON line writes `text` from it.
 */
export type FinalEvent = { type: 'final'; text?: string; structured?: unknown; spool?: TextSpool };
export type WarningEvent = { type: 'warning'; message: string };
export type ErrorEvent = { type: 'error'; code: string; message: string; recoverable: boolean };
/** A conversation's user turn begins (--multi-turn): its number from 1, and what the user said. */
export type TurnStartEvent = { type: 'turn_start'; turn: number; content: string };
/** A conversation's user turn is over: answered, stopped by an `interrupt`, or cut at the turn limit. */
export type TurnEndEvent = { type: 'turn_end'; turn: number; status: 'success' | 'interrupted' | 'incomplete' };
/** --heartbeat: nothing else was written for that long, and the run goes on. */
export type HeartbeatEvent = { type: 'heartbeat' };
/** `interrupted` and `incomplete` are version 2 only. */
export type RunEndEvent = { type: 'run_end'; status: 'success' | 'error' | 'interrupted' | 'incomplete'; exitCode: number };

/** An output event before the stamp stage adds schemaVersion and runId. */
export type Event =
  | RunStartEvent
  | TextEvent
  | ReasoningEvent
  | ToolCallEvent
  | CheckpointEvent
  | PermissionRequestEvent
  | PermissionDecisionEvent
  | ToolResultEvent
  | UsageEvent
  | FinalEvent
  | WarningEvent
  | ErrorEvent
  | TurnStartEvent
  | TurnEndEvent
  | HeartbeatEvent
  | RunEndEvent;

export type Stamped<E extends Event = Event> = E & { schemaVersion: SchemaVersion; runId: string };
export type OutputEvent = Stamped;

/** What the combine stage hands to the agent: the prompt the model receives. */
export type PromptRequest = { prompt: string; images?: ImageInput[] };

/** A line of text framed by the split stage; lineNo counts physical lines from 1; `bytes`, when asked for, are its exact bytes without `\n` and a trailing `\r`. */
export type Line = { line: string; lineNo: number; bytes?: Buffer };
/** A parsed JSON value and the line it came from. */
export type Parsed = { value: unknown; lineNo: number };

/** The version written when nothing chooses another (docs/protocol.md §7: --schema-version, ZERO_SCHEMA_VERSION, the input's). */
export const SCHEMA_VERSION: SchemaVersion = 1;
