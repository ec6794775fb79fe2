import type { ImageInput } from './types.js';

/** What a provider sends to the model for each advertised tool. */
export type ToolDefinition = { name: string; description: string; parameters: Record<string, unknown> };

/** A tool call the model asked for, as the agent, the providers and the session history carry it. */
export type ToolCallRequest = {
  id: string;
  name: string;
  args: unknown;
  /** Set when the model's arguments could not be parsed: the call is answered with this as an error result, not run. */
  argsError?: string;
};

/** The conversation as every provider receives it; each provider maps it to its own wire format. */
export type ChatMessage =
  | { role: 'user'; content: string; images?: ImageInput[] }
  /** reasoningBlocks: provider-native reasoning blocks (Anthropic thinking with its signature), sent back verbatim in later turns. */
  | { role: 'assistant'; content: string; toolCalls: ToolCallRequest[]; reasoningBlocks?: unknown[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string; isError: boolean };
