import type { ChatMessage, ToolCallRequest, ToolDefinition } from '../protocol/chat.js';
import type { AuthSettings } from './headers.js';
import type { Price } from './prices.js';
import type { AnswerFormat } from '../agent/answer-schema.js';

/**
 * `answer` (--output-schema): the schema the answer must conform to, for the providers that can ask for it natively.
 * `responseStart`: a `response_start` chunk is wanted as soon as the response begins.
 */
export type TurnRequest = { messages: ChatMessage[]; tools: ToolDefinition[]; answer?: AnswerFormat; responseStart?: boolean };

/** What a provider streams during one model turn. A tool call arrives whole (fragments already assembled). */
export type ProviderChunk =
  | { type: 'text'; delta: string }
  /** The model's reasoning (Anthropic thinking, `reasoning_content` / `reasoning` deltas): a `reasoning` event, never text. */
  | { type: 'reasoning'; delta: string }
  /** A whole provider-native reasoning block, kept on the assistant message for the next request; never an event. */
  | { type: 'reasoning_block'; block: unknown }
  | ({ type: 'tool_call' } & ToolCallRequest)
  /** `cachedTokens`: the part of `promptTokens` read from the provider's prompt cache (priced apart). */
  | { type: 'usage'; promptTokens?: number; completionTokens?: number; cachedTokens?: number; costUsd?: number }
  /**
   * The response began (its first chunk came, so `apiModel` is known), when the request asked for it: a model's
   * first text comes tens to hundreds of ms later, and run_start goes out meanwhile. A provider may not tell.
   */
  | { type: 'response_start' };

export interface Provider {
  /** As reported in run_start.provider. */
  readonly name: string;
  /** The model the user asked for (run_start.model). */
  readonly model: string;
  /** The model the API answered with, once known (run_start.apiModel). */
  readonly apiModel?: string;
  /** Whether it can send images to the model (a run with images and a provider that cannot is a usage error before it starts). */
  readonly acceptsImages?: boolean;
  /**
   * One model turn. Pulled chunk by chunk: the agent does not ask for the next
   * chunk while its reader is busy, so a provider must not read ahead unboundedly.
   * Failures throw a ZeroError (ProviderError for anything the model side did wrong).
   */
  turn(request: TurnRequest, signal: AbortSignal): AsyncIterable<ProviderChunk>;
}

/** What the CLI (flags, environment, config files) hands to a network provider's factory. */
export type ProviderOptions = {
  /** The model the user asked for; each provider has a default. */
  model?: string;
  apiKey?: string;
  baseURL?: string;
  /** Retries of a refused call (429, 5xx, connection failures), with backoff honouring Retry-After. Default 2. */
  maxRetries?: number;
  /** Limit for one whole model call, streaming included. */
  timeoutMs?: number;
  /** Limit on the silence between two stream chunks. */
  idleTimeoutMs?: number;
  /** As run_start.provider reports it (e.g. "openai-compatible" for a local server). */
  label?: string;
  /** False when the profile says its model takes no images (a run with images is then a usage error). */
  acceptsImages?: boolean;
  /** --reasoning-budget: tokens the model may spend reasoning (Anthropic extended thinking); off when undefined. */
  reasoningBudget?: number;
  /** -r/--reasoning-effort: OpenAI's reasoning_effort; for Anthropic a thinking budget (--reasoning-budget wins). */
  reasoningEffort?: ReasoningEffort;
  /** The profile's authHeader, authScheme, authHeaderValue and customHeaders (see headers.ts). */
  auth?: Omit<AuthSettings, 'apiKey'>;
  /** `<think>…</think>` in the answer is reasoning, not text (OpenAI wire format only). */
  parseThinkTags?: boolean;
  /** The profile's `pricing`: what a turn costs, instead of the price table's (lib/providers/prices.ts). */
  pricing?: Price;
};

export type ReasoningEffort = 'minimal' | 'low' | 'medium' | 'high';

export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_TIMEOUT_MS = 600_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 120_000;
