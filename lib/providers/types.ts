import type { ToolDefinition } from '../tools/types.js';

export type ToolCallRequest = { id: string; name: string; args: unknown };

/** The conversation as every provider receives it; each provider maps it to its own wire format. */
export type ChatMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls: ToolCallRequest[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string; isError: boolean };

export type TurnRequest = { messages: ChatMessage[]; tools: ToolDefinition[] };

/** What a provider streams during one model turn. A tool call arrives whole (fragments already assembled). */
export type ProviderChunk =
  | { type: 'text'; delta: string }
  | ({ type: 'tool_call' } & ToolCallRequest)
  | { type: 'usage'; promptTokens?: number; completionTokens?: number; costUsd?: number };

export interface Provider {
  /** As reported in run_start.provider. */
  readonly name: string;
  /** The model the user asked for (run_start.model). */
  readonly model: string;
  /** The model the API answered with, once known (run_start.apiModel). */
  readonly apiModel?: string;
  /**
   * One model turn. Pulled chunk by chunk: the agent does not ask for the next
   * chunk while its reader is busy, so a provider must not read ahead unboundedly.
   * Failures throw a ZeroError (ProviderError for anything the model side did wrong).
   */
  turn(request: TurnRequest, signal: AbortSignal): AsyncIterable<ProviderChunk>;
}
