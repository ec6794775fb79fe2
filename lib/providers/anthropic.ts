import Anthropic from '@anthropic-ai/sdk';
import { ProviderError } from '../errors.js';
import { isJsonObject } from '../protocol/json-object.js';
import type { ChatMessage, ToolDefinition } from '../protocol/chat.js';
import { deadlines, parseToolArguments, providerFailure } from './faults.js';
import type { AnswerFormat } from '../agent/answer-schema.js';
import { requestHeaders } from './headers.js';
import { wireReader, type WireReader } from './wire.js';
import {
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  type Provider,
  type ProviderChunk,
  type ProviderOptions,
  type ReasoningEffort,
  type TurnRequest,
} from './types.js';

const DEFAULT_MODEL = 'claude-sonnet-4-6';
/** The answer's room; a reasoning budget comes on top of it. */
const MAX_TOKENS = 8192;

type ToolResultParam = Anthropic.ToolResultBlockParam;
type ReasoningBlock = Anthropic.ThinkingBlockParam | Anthropic.RedactedThinkingBlockParam;
type UserMessage = Extract<ChatMessage, { role: 'user' }>;

/** Plain text, or blocks when the message carries images: one image block each, then its text (left out when empty). */
function userContent({ content, images }: UserMessage): string | Anthropic.ContentBlockParam[] {
  if (!images?.length) return content;
  const blocks: Anthropic.ContentBlockParam[] = images.map(({ mediaType, data }) => ({ type: 'image', source: { type: 'base64', media_type: mediaType, data } }));
  return content ? [...blocks, { type: 'text', text: content }] : blocks;
}

/** The conversation in the Messages API's shape; consecutive tool results share one user message. */
function toAnthropicMessages(messages: ChatMessage[]): Anthropic.MessageParam[] {
  const result: Anthropic.MessageParam[] = [];
  let toolResults: ToolResultParam[] | undefined;
  for (const message of messages) {
    if (message.role === 'tool') {
      const block: ToolResultParam = { type: 'tool_result', tool_use_id: message.toolCallId, content: message.content, is_error: message.isError };
      if (toolResults) toolResults.push(block);
      else result.push({ role: 'user', content: (toolResults = [block]) });
      continue;
    }
    toolResults = undefined;
    if (message.role === 'user') {
      result.push({ role: 'user', content: userContent(message) });
    } else {
      // Thinking blocks go back first, verbatim and in order: the API checks their signatures and refuses a thinking turn otherwise.
      const reasoning = (message.reasoningBlocks ?? []) as ReasoningBlock[];
      const text: Anthropic.TextBlockParam[] = message.content ? [{ type: 'text', text: message.content }] : [];
      const calls = message.toolCalls.map((call): Anthropic.ToolUseBlockParam => ({ type: 'tool_use', id: call.id, name: call.name, input: isJsonObject(call.args) ? call.args : {} }));
      result.push({ role: 'assistant', content: [...reasoning, ...text, ...calls] });
    }
  }
  return result;
}

function toAnthropicTools(tools: ToolDefinition[]): Anthropic.Tool[] {
  return tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.parameters as Anthropic.Tool.InputSchema }));
}

/** --output-schema: the model answers by calling this tool, whose input is the answer (Anthropic has no JSON response format). */
export const ANSWER_TOOL = 'final_answer';

/**
 * The answer's tool, for a schema of an object (a tool's input is one), and the choice that forces a tool call each
 * turn, so the answer cannot be prose: the model calls its tools, then this one. Extended thinking takes no forced
 * choice: with it the tool is offered, and the answer checked all the same.
 */
function answerTool(answer: AnswerFormat | undefined, thinking: boolean): Pick<Anthropic.MessageCreateParams, 'tool_choice'> & { tools: Anthropic.Tool[] } {
  if (answer?.schema.type !== 'object') return { tools: [] };
  const tool = { name: ANSWER_TOOL, description: 'Give your final answer: call this once your work is done, with the answer as its input.', input_schema: answer.schema as Anthropic.Tool.InputSchema };
  return { tools: [tool], ...(thinking ? {} : { tool_choice: { type: 'any' } }) };
}

/** -r/--reasoning-effort as a thinking budget: Zero's budgets for its levels. */
export const EFFORT_BUDGETS: Record<ReasoningEffort, number> = { minimal: 1024, low: 4096, medium: 10_000, high: 24_000 };

/** max_tokens, and extended thinking when a budget is set (the API needs max_tokens above the budget); --reasoning-budget wins over -r. */
function tokenLimits({ reasoningBudget: budget, reasoningEffort: effort }: ProviderOptions): Pick<Anthropic.MessageCreateParams, 'max_tokens' | 'thinking'> {
  const reasoningBudget = budget ?? (effort && EFFORT_BUDGETS[effort]);
  if (reasoningBudget === undefined) return { max_tokens: MAX_TOKENS };
  return { max_tokens: reasoningBudget + MAX_TOKENS, thinking: { type: 'enabled', budget_tokens: reasoningBudget } };
}

type ToolBlock = { id: string; name: string; json: string };

/** The prompt's tokens as the events of a message tell them: a field an event leaves out keeps what an earlier one said. */
type PromptCounts = { input?: number; read?: number; written?: number };

const promptCounts = (usage: Record<string, unknown> | undefined, before: PromptCounts, wire: WireReader): PromptCounts => ({
  input: wire.count(usage?.input_tokens, 'usage.input_tokens') ?? before.input,
  read: wire.count(usage?.cache_read_input_tokens, 'usage.cache_read_input_tokens') ?? before.read,
  written: wire.count(usage?.cache_creation_input_tokens, 'usage.cache_creation_input_tokens') ?? before.written,
});

/**
 * The prompt's tokens as OpenAI counts them: Anthropic's `input_tokens` leave out those read from the cache and
 * those written to it, which are the prompt's too (`cachedTokens`: the ones read, priced apart).
 */
function promptUsage({ input, read, written }: PromptCounts): { promptTokens?: number; cachedTokens?: number } {
  if (input === undefined) return {};
  return { promptTokens: input + (read ?? 0) + (written ?? 0), ...(read ? { cachedTokens: read } : {}) };
}

/**
 * One response's content blocks as the stream builds them: the chunks to yield as
 * each event arrives, whole reasoning blocks at their end, the tool calls once
 * the stream is over.
 */
class ContentBlocks {
  readonly calls: ToolBlock[] = [];
  private readonly tools = new Map<number, ToolBlock>();
  private readonly reasoning = new Map<number, ReasoningBlock>();

  constructor(private readonly wire: WireReader) {}

  *start(event: Record<string, unknown>): Generator<ProviderChunk> {
    const { wire } = this;
    const index = wire.count(event.index, 'index') ?? 0;
    const block = wire.object(event.content_block, 'content_block', true)!;
    const text = (field: string) => wire.text(block[field], `content_block.${field}`) ?? '';
    if (block.type === 'tool_use') this.tools.set(index, { id: text('id'), name: text('name'), json: '' });
    else if (block.type === 'redacted_thinking') this.reasoning.set(index, { type: 'redacted_thinking', data: text('data') });
    else if (block.type === 'thinking') {
      const thinking = text('thinking');
      this.reasoning.set(index, { type: 'thinking', thinking, signature: text('signature') });
      if (thinking) yield { type: 'reasoning', delta: thinking };
    }
  }

  *delta(event: Record<string, unknown>): Generator<ProviderChunk> {
    const { wire } = this;
    const index = wire.count(event.index, 'index') ?? 0;
    const delta = wire.object(event.delta, 'delta', true)!;
    const text = (field: string) => wire.text(delta[field], `delta.${field}`) ?? '';
    const tool = this.tools.get(index);
    const reasoning = this.reasoning.get(index);
    switch (delta.type) {
      case 'text_delta':
        yield { type: 'text', delta: text('text') };
        break;
      case 'input_json_delta':
        if (tool) tool.json += text('partial_json');
        break;
      case 'thinking_delta': {
        const thinking = text('thinking');
        if (reasoning?.type === 'thinking') reasoning.thinking += thinking;
        yield { type: 'reasoning', delta: thinking };
        break;
      }
      case 'signature_delta':
        if (reasoning?.type === 'thinking') reasoning.signature += text('signature');
        break;
    }
  }

  *stop(event: Record<string, unknown>): Generator<ProviderChunk> {
    const index = this.wire.count(event.index, 'index') ?? 0;
    const tool = this.tools.get(index);
    if (tool) this.calls.push(tool);
    const reasoning = this.reasoning.get(index);
    if (reasoning) yield { type: 'reasoning_block', block: reasoning };
  }
}

class AnthropicProvider implements Provider {
  readonly name: string;
  readonly model: string;
  readonly acceptsImages: boolean;
  apiModel?: string;
  private readonly client: Anthropic;

  constructor(private readonly options: ProviderOptions) {
    this.name = options.label ?? 'anthropic';
    this.model = options.model ?? DEFAULT_MODEL;
    this.acceptsImages = options.acceptsImages ?? true;
    if (!options.apiKey && !options.baseURL) {
      throw new ProviderError(`The ${this.name} provider needs an API key: set ANTHROPIC_API_KEY (or a base URL for a server that needs none).`);
    }
    this.client = new Anthropic({
      // An anthropic-compatible server may need no key, but without one the SDK reads ANTHROPIC_API_KEY or its credential chain.
      apiKey: options.apiKey || 'not-needed',
      // null, not undefined: the SDK would otherwise read ANTHROPIC_BASE_URL itself; the registry decides.
      baseURL: options.baseURL ?? null,
      maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
      timeout: Math.max(1, Math.ceil(options.timeoutMs ?? DEFAULT_TIMEOUT_MS)),
      // stderr stays quiet (docs/protocol.md §3): failures reach the user as our own errors.
      logLevel: 'off',
      defaultHeaders: requestHeaders({ ...options.auth, apiKey: options.apiKey }, { header: 'x-api-key', scheme: '' }),
    });
  }

  async *turn(request: TurnRequest, signal: AbortSignal): AsyncGenerator<ProviderChunk> {
    const label = this.name;
    const deadline = deadlines(signal, label, {
      timeoutMs: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      idleTimeoutMs: this.options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    });
    const wire = wireReader(label);
    const blocks = new ContentBlocks(wire);
    let prompt: PromptCounts = {};
    let completionTokens: number | undefined;
    let stopped = false;
    try {
      const limits = tokenLimits(this.options);
      const answer = answerTool(request.answer, limits.thinking !== undefined);
      const tools = [...toAnthropicTools(request.tools), ...answer.tools];
      const choice = answer.tool_choice ? { tool_choice: answer.tool_choice } : {};
      const stream = await this.client.messages.create(
        { model: this.model, ...limits, messages: toAnthropicMessages(request.messages), ...(tools.length ? { tools } : {}), ...choice, stream: true },
        { signal: deadline.signal },
      );
      for await (const raw of stream) {
        deadline.touch();
        const event = wire.object(raw, 'an event', true)!;
        switch (event.type) {
          case 'message_start': {
            const message = wire.object(event.message, 'message', true)!;
            this.apiModel = wire.text(message.model, 'message.model');
            prompt = promptCounts(wire.object(message.usage, 'message.usage'), prompt, wire);
            if (request.responseStart) yield { type: 'response_start' };
            break;
          }
          case 'content_block_start':
            yield* blocks.start(event);
            break;
          case 'content_block_delta':
            yield* blocks.delta(event);
            break;
          case 'content_block_stop':
            yield* blocks.stop(event);
            break;
          case 'message_delta': {
            const usage = wire.object(event.usage, 'usage');
            prompt = promptCounts(usage, prompt, wire);
            completionTokens = wire.count(usage?.output_tokens, 'usage.output_tokens') ?? completionTokens;
            break;
          }
          case 'message_stop':
            stopped = true;
            break;
        }
      }
      // The SDK ends the stream quietly when its request is aborted: say why.
      if (deadline.signal.aborted) throw deadline.reason();
      if (!stopped) throw new ProviderError(`${label} stream ended before message_stop: the response is incomplete.`);
    } catch (error) {
      if (deadline.signal.aborted) throw deadline.reason();
      throw providerFailure(error, label);
    } finally {
      deadline.dispose();
    }
    for (const call of blocks.calls) {
      if (request.answer && call.name === ANSWER_TOOL) yield { type: 'text', delta: call.json || '{}' };
      else yield { type: 'tool_call', id: call.id, name: call.name, ...parseToolArguments(call.json) };
    }
    yield { type: 'usage', ...promptUsage(prompt), ...(completionTokens === undefined ? {} : { completionTokens }) };
  }
}

export function createAnthropicProvider(options: ProviderOptions): Provider {
  return new AnthropicProvider(options);
}
