import type { CheckpointEvent, HeartbeatEvent, OutputEvent, PermissionDecisionEvent, PermissionRequestEvent, ReasoningEvent } from '../protocol/types.js';

/** The events the `json` format has a line for: not reasoning, checkpoints, permission events or heartbeats (the serializer skips them). */
export type LegacyOutputEvent = Exclude<OutputEvent, { type: (ReasoningEvent | CheckpointEvent | PermissionRequestEvent | PermissionDecisionEvent | HeartbeatEvent)['type'] }>;

const NO_LEGACY_LINE: ReadonlySet<string> = new Set(['reasoning', 'checkpoint', 'permission_request', 'permission_decision', 'heartbeat']);

export const hasLegacyLine = (event: OutputEvent): event is LegacyOutputEvent => !NO_LEGACY_LINE.has(event.type);

type LegacyEvent = Record<string, unknown> & { type: string };

function compact(event: LegacyEvent): LegacyEvent {
  return Object.fromEntries(Object.entries(event).filter(([, value]) => value !== undefined)) as LegacyEvent;
}

/** An output event in the older snake_case `json` format (docs/protocol.md §5) that existing wrappers parse. */
export function toLegacyJson(event: OutputEvent): LegacyEvent {
  if (!hasLegacyLine(event)) return { type: event.type };
  const run_id = event.runId;
  switch (event.type) {
    case 'run_start':
      return compact({ type: 'run_start', run_id, session_id: event.sessionId, cwd: event.cwd, provider: event.provider, model: event.model, api_model: event.apiModel });
    case 'text':
      return { type: 'text', delta: event.delta };
    case 'tool_call':
      return compact({ type: 'tool_call', id: event.id, name: event.name, arguments: JSON.stringify(event.args ?? {}), side_effect: event.sideEffect });
    case 'tool_result':
      return { type: 'tool_result', tool_call_id: event.id, result: event.output, is_error: event.status === 'error', truncated: event.truncated };
    case 'usage':
      return compact({ type: 'usage', prompt_tokens: event.promptTokens, completion_tokens: event.completionTokens, total_tokens: event.totalTokens, cost_usd: event.costUsd });
    case 'warning':
      return { type: 'warning', message: event.message };
    case 'final':
      return { type: 'final', text: event.text, ...(event.spool ? { spool: event.spool } : {}) };
    case 'error':
      return { type: 'error', code: event.code, message: event.message };
    case 'turn_start':
      return { type: 'turn_start', turn: event.turn, content: event.content };
    case 'turn_end':
      return { type: 'turn_end', turn: event.turn, status: event.status };
    case 'run_end':
      return { type: 'done', exit_code: event.exitCode };
  }
}
