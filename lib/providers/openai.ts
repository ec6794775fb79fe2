import OpenAI from 'openai';
import { ProviderError } from '../errors.js';
import type { ChatMessage, ToolDefinition } from '../protocol/chat.js';
import { boundedFetch } from './event-bound.js';
import { deadlines, parseToolArguments, providerFailure } from './faults.js';
import { requestHeaders } from './headers.js';
import { ThinkTagSplitter } from './think-tags.js';
import { wireReader, type WireReader } from './wire.js';
import {
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  type Provider,
  type ProviderChunk,
  type ProviderOptions,
  type TurnRequest,
} from './types.js';

export const DEFAULT_OPENAI_MODEL = 'gpt-4.1';

type WireMessage = OpenAI.Chat.ChatCompletionMessageParam;
type UserMessage = Extract<ChatMessage, { role: 'user' }>;
type WireTool = OpenAI.Chat.ChatCompletionFunctionTool;
/** One tool call as its fragments arrive: id and name in the first, the arguments in pieces. */
type PartialCall = { id: string; name: string; arguments: string };

export function toOpenAIMessages(messages: ChatMessage[]): WireMessage[] {
  return messages.map((message): WireMessage => {
    if (message.role === 'user') return { role: 'user', content: userContent(message) };
    if (message.role === 'tool') return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    if (message.toolCalls.length === 0) return { role: 'assistant', content: message.content };
    return {
      role: 'assistant',
      content: message.content || null,
      tool_calls: message.toolCalls.map((call) => ({
        id: call.id,
        type: 'function',
        function: { name: call.name, arguments: JSON.stringify(call.args ?? {}) },
      })),
    };
  });
}

/** Plain text, or content parts when the message carries images: its text (left out when empty), then one data URL per image. */
function userContent({ content, images }: UserMessage): string | OpenAI.Chat.ChatCompletionContentPart[] {
  if (!images?.length) return content;
  const text: OpenAI.Chat.ChatCompletionContentPart[] = content ? [{ type: 'text', text: content }] : [];
  return [...text, ...images.map(({ mediaType, data }) => ({ type: 'image_url' as const, image_url: { url: `data:${mediaType};base64,${data}` } }))];
}

/**
 * The reasoning in a streamed delta: vLLM and DeepSeek send `reasoning_content`,
 * Ollama and OpenRouter `reasoning` (the SDK's types know neither). When a delta
 * carries both, `reasoning_content` wins, as in Zero.
 */
function reasoningOf(delta: Record<string, unknown> | undefined, wire: WireReader): string | undefined {
  return wire.text(delta?.reasoning_content, 'delta.reasoning_content') || wire.text(delta?.reasoning, 'delta.reasoning') || undefined;
}

/** The usage of a turn; `cached_tokens` are part of `prompt_tokens`, reasoning tokens part of `completion_tokens`. */
function usageOf(usage: Record<string, unknown>, wire: WireReader): ProviderChunk {
  const promptTokens = wire.count(usage.prompt_tokens, 'usage.prompt_tokens');
  const completionTokens = wire.count(usage.completion_tokens, 'usage.completion_tokens');
  const cachedTokens = wire.count(wire.object(usage.prompt_tokens_details, 'usage.prompt_tokens_details')?.cached_tokens, 'usage.prompt_tokens_details.cached_tokens');
  return { type: 'usage', promptTokens, completionTokens, ...(cachedTokens ? { cachedTokens } : {}) };
}

/**
 * Whether a streamed body's bytes, piece by piece, held `[DONE]`, the line that ends an OpenAI stream: a gateway
 * that never sends a finish_reason still ends its stream so. (`[DONE]` in a model's text would count too: the
 * check is then only as strict as it was before it.)
 */
function doneWatch(): { see(chunk: Uint8Array): void; readonly done: boolean } {
  const MARK = '[DONE]';
  let tail = Buffer.alloc(0);
  let done = false;
  return {
    see(chunk) {
      if (done) return;
      const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      // a mark cut between two pieces is found in the last bytes of one and the first of the next
      done = bytes.includes(MARK) || Buffer.concat([tail, bytes.subarray(0, MARK.length)]).includes(MARK);
      tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - MARK.length)));
    },
    get done() {
      return done;
    },
  };
}

/** A tool call's fragment, as one chunk carries it: the call's index, and what of its id, name and arguments came. */
function fragmentOf(value: unknown, wire: WireReader): { index: number; id?: string; name?: string; arguments?: string } {
  const fragment = wire.object(value, 'delta.tool_calls[]', true)!;
  const call = wire.object(fragment.function, 'delta.tool_calls[].function');
  return {
    index: wire.count(fragment.index, 'delta.tool_calls[].index') ?? 0,
    id: wire.text(fragment.id, 'delta.tool_calls[].id'),
    name: wire.text(call?.name, 'delta.tool_calls[].function.name'),
    arguments: wire.text(call?.arguments, 'delta.tool_calls[].function.arguments'),
  };
}

export function toOpenAITools(tools: ToolDefinition[]): WireTool[] {
  return tools.map(({ name, description, parameters }) => ({ type: 'function', function: { name, description, parameters } }));
}

/**
 * Resolves or rejects with the SDK's promise, or rejects as soon as the signal
 * aborts: the SDK sleeps out a Retry-After without watching the signal.
 */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

class OpenAIProvider implements Provider {
  readonly name: string;
  readonly model: string;
  readonly acceptsImages: boolean;
  apiModel?: string;
  private readonly client: OpenAI;
  private turns = 0;
  /** The running turn's idle clock: bytes arriving restart it. */
  private onBytes: (chunk: Uint8Array) => void = () => {};

  constructor(private readonly options: ProviderOptions) {
    this.name = options.label ?? 'openai';
    this.model = options.model ?? DEFAULT_OPENAI_MODEL;
    this.acceptsImages = options.acceptsImages ?? true;
    if (!options.apiKey && !options.baseURL) {
      throw new ProviderError(`The ${this.name} provider needs an API key: set OPENAI_API_KEY (or OPENAI_BASE_URL for a server that needs none).`);
    }
    this.client = new OpenAI({
      // A local server (Ollama, LM Studio, vLLM) needs no key, but the SDK insists on one.
      apiKey: options.apiKey || 'not-needed',
      // null, not undefined: the SDK would otherwise read OPENAI_BASE_URL itself; the registry decides.
      baseURL: options.baseURL ?? null,
      maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
      // Per attempt, until the headers arrive; our own deadlines cover the whole call.
      timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      // The SDK would print unparseable chunks to the console; our ProviderError reports them.
      logLevel: 'off',
      defaultHeaders: requestHeaders({ ...options.auth, apiKey: options.apiKey }, { header: 'Authorization', scheme: 'Bearer' }),
      fetch: boundedFetch(this.name, (chunk) => this.onBytes(chunk)),
    });
  }

  async *turn(request: TurnRequest, signal: AbortSignal): AsyncGenerator<ProviderChunk> {
    const turn = ++this.turns;
    const limits = deadlines(signal, this.name, {
      timeoutMs: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      idleTimeoutMs: this.options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    });
    const ending = doneWatch();
    this.onBytes = (chunk) => {
      limits.touch();
      ending.see(chunk);
    };
    const calls = new Map<number, PartialCall>();
    const wire = wireReader(this.name);
    let finished = false;
    const thinkTags = this.options.parseThinkTags ? new ThinkTagSplitter() : undefined;
    let started = false;
    try {
      const body: OpenAI.Chat.ChatCompletionCreateParamsStreaming = {
        model: this.model,
        messages: toOpenAIMessages(request.messages),
        ...(request.tools.length > 0 ? { tools: toOpenAITools(request.tools) } : {}),
        stream: true,
        stream_options: { include_usage: true },
        ...(this.options.reasoningEffort ? { reasoning_effort: this.options.reasoningEffort } : {}),
        ...(request.answer ? { response_format: { type: 'json_schema', json_schema: request.answer } } : {}),
      };
      const stream = await unlessAborted(this.client.chat.completions.create(body, { signal: limits.signal }), limits.signal);
      for await (const raw of stream) {
        // After an abort the SDK still hands out chunks it had already received.
        limits.signal.throwIfAborted();
        limits.touch();
        const chunk = wire.object(raw, 'a chunk', true)!;
        const model = wire.text(chunk.model, 'model');
        if (model) this.apiModel ??= model;
        // at the first chunk that names the model (Azure's first names none): else run_start waits for the first event
        if (request.responseStart && !started && this.apiModel) {
          started = true;
          yield { type: 'response_start' };
        }
        const choice = wire.object(wire.list(chunk.choices, 'choices')[0], 'choices[0]');
        if (wire.text(choice?.finish_reason, 'choices[0].finish_reason')) finished = true;
        const delta = wire.object(choice?.delta, 'choices[0].delta');
        const reasoning = reasoningOf(delta, wire);
        if (reasoning) yield { type: 'reasoning', delta: reasoning };
        const content = wire.text(delta?.content, 'delta.content');
        if (content) yield* thinkTags?.push(content) ?? [{ type: 'text', delta: content }];
        for (const fragment of wire.list(delta?.tool_calls, 'delta.tool_calls').map((value) => fragmentOf(value, wire))) {
          const call = calls.get(fragment.index) ?? { id: '', name: '', arguments: '' };
          calls.set(fragment.index, call);
          call.id ||= fragment.id ?? '';
          call.name ||= fragment.name ?? '';
          call.arguments += fragment.arguments ?? '';
        }
        const usage = wire.object(chunk.usage, 'usage');
        if (usage) yield usageOf(usage, wire);
      }
      // On an abort the SDK ends the stream quietly instead of throwing.
      limits.signal.throwIfAborted();
      // a body that ended cleanly mid-answer (a proxy's timeout, a server that died): no tool call of it may run
      if (!finished && !ending.done) throw new ProviderError(`${this.name} stream ended before its finish_reason: the response is incomplete.`);
      if (thinkTags) yield* thinkTags.flush();
      for (const [index, call] of [...calls].sort(([a], [b]) => a - b)) {
        // Some compatible servers send no id; the model only needs it to match the result.
        const id = call.id || `call_${turn}_${index}`;
        yield { type: 'tool_call', id, name: call.name, ...parseToolArguments(call.arguments) };
      }
    } catch (error) {
      if (limits.signal.aborted) throw limits.reason();
      throw providerFailure(error, this.name);
    } finally {
      this.onBytes = () => {};
      limits.dispose();
    }
  }
}

export function createOpenAIProvider(options: ProviderOptions): Provider {
  return new OpenAIProvider(options);
}
