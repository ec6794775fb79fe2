import { BudgetExceededError, InvalidOutputError, MaxTurnsError, ProviderError, ZeroError } from '../errors.js';
import type { Event, FinalEvent, ImageInput, PermissionDecisionEvent, SideEffect } from '../protocol/types.js';
import type { ChatMessage, ToolCallRequest } from '../protocol/chat.js';
import type { Provider, ProviderChunk } from '../providers/types.js';
import type { Toolbox } from '../tools/registry.js';
import type { ToolContext, ToolOutcome } from '../tools/types.js';
import { isTooDeep, TOO_DEEP_ARGUMENTS } from '../protocol/depth.js';
import { isJsonObject } from '../protocol/json-object.js';
import { validCallId } from '../protocol/ids.js';
import { askReason } from '../tools/permissions.js';
import type { Meter } from './limits.js';
import { retryRequest, type AnswerSchema } from './answer-schema.js';
import { TextSpool } from '../files/text-spool.js';

export type AgentRun = ModelRun & {
  prompt: string;
  /** Sent with the prompt, in the first user message. */
  images?: ImageInput[];
  /** The conversation so far (a resumed session's), before this prompt. */
  history?: ChatMessage[];
};

/** What model turns need, whatever the conversation they answer. */
export type ModelRun = {
  provider: Provider;
  toolbox: Toolbox;
  cwd: string;
  extraRoots?: string[];
  maxTurns: number;
  signal: AbortSignal;
  /** --permission-prompt stdio: where the calls the toolbox `asks` for get their answer. */
  permissions?: PermissionDesk;
  /** The run's spending (lib/agent/limits.ts): the cost of each usage, and the budgets that stop the run. */
  meter?: Meter;
  /** --output-schema: the answer must be a JSON document that conforms; one that does not is sent back (retries). */
  answer?: AnswerSchema;
  /** A turn's text past this many characters goes to a spool (lib/files/text-spool.ts), and a `final` carries it as `spool`. */
  spoolAfterChars?: number;
  /** The events to write as soon as a model's response begins, before its first text (run_start, for the first one). */
  onResponseStart?: () => Iterable<Event>;
};

/** The client's answer to a permission request, as its `permission_decision` tells it. */
export type PermissionAnswer = { action: PermissionDecisionEvent['action']; reason: string };

/** Where a run asks the client for permission (lib/agent/permission-desk.ts). */
export type PermissionDesk = {
  /** An answer given once for the rest of the run (`remember`), if there is one for this tool. */
  remembered(name: string): PermissionAnswer | undefined;
  /** Waits for the client's answer to the request of this call; `cancel` when the signal aborts or the input ends first. */
  ask(call: { id: string; name: string }, signal: AbortSignal): Promise<PermissionAnswer>;
};

/** One model turn's chunks; a failure that is not already a ZeroError is the provider's. */
async function* streamTurn(run: ModelRun, messages: ChatMessage[]): AsyncGenerator<ProviderChunk> {
  try {
    const answer = run.answer && { name: run.answer.name, schema: run.answer.schema, strict: run.answer.strict };
    yield* run.provider.turn({ messages, tools: run.toolbox.definitions(), ...(answer ? { answer } : {}), responseStart: Boolean(run.onResponseStart) }, run.signal);
  } catch (error) {
    if (run.signal.aborted) throw run.signal.reason;
    if (error instanceof ZeroError) throw error;
    throw new ProviderError(`Provider ${run.provider.name} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/**
 * Arguments nested too deeply to walk or serialize safely are answered like unparseable ones:
 * an error result the model can act on, and no `args` anywhere downstream.
 */
function withinDepth(call: ToolCallRequest): ToolCallRequest {
  if (call.argsError !== undefined || !isTooDeep(call.args)) return call;
  return { id: call.id, name: call.name, args: undefined, argsError: TOO_DEEP_ARGUMENTS };
}

async function* checkpointAndRun(run: ModelRun, { id, name, args }: ToolCallRequest, context: ToolContext, nextCheckpoint: () => number): AsyncGenerator<Event, ToolOutcome> {
  const files = await run.toolbox.targets({ id, name, args }, context);
  if (files.length) yield { type: 'checkpoint', checkpoint: { sequence: nextCheckpoint(), tool: name, files } };
  return await run.toolbox.run({ id, name, args }, context);
}

/**
 * The permission events of a call before it runs (Toolbox.gate): a `permission_decision` allow for a call --auto
 * low or medium allows; with --permission-prompt stdio, for a call that waits for the client, `permission_request`
 * (unless an answer was remembered) and the answer as `permission_decision`. Returns the error outcome of a call
 * that may not run (refused for want of a permission: its outcome carries the Refusal), else undefined.
 */
async function* permit(run: ModelRun, call: ToolCallRequest, sideEffect: SideEffect, context: ToolContext): AsyncGenerator<Event, ToolOutcome | undefined> {
  const { permissions, toolbox } = run;
  const gate = await toolbox.gate(call, context);
  const { id, name } = call;
  const permission = toolbox.permissionOf(name);
  if (gate.kind === 'auto') yield { type: 'permission_decision', id, name, action: 'allow', permission, permissionGranted: true, decisionReason: gate.reason };
  if (gate.kind === 'refuse') return { status: 'error', output: gate.reason, truncated: false, refusal: { reason: gate.reason } };
  if (gate.kind !== 'ask' || !permissions) return undefined;
  let answer = permissions.remembered(name);
  if (!answer) {
    // waiting before the request goes out: a client that answers as it reads it (in the same tick, in-process) is heard
    const unasked = new AbortController();
    const asking = permissions.ask({ id, name }, AbortSignal.any([run.signal, unasked.signal]));
    try {
      yield { type: 'permission_request', id, name, action: 'prompt', permission, permissionMode: toolbox.permissionMode, sideEffect, reason: askReason(name, sideEffect) };
      answer = await asking;
    } finally {
      // answered, a no-op; stopped at the request (its reader went away): nothing waits for an answer, nor its timer
      unasked.abort(new Error('The permission request was never read.'));
    }
  }
  const permissionGranted = answer.action === 'allow';
  yield { type: 'permission_decision', id, name, action: answer.action, permission, permissionGranted, decisionReason: answer.reason };
  return permissionGranted ? undefined : { status: 'error', output: answer.reason, truncated: false };
}

/**
 * Runs one call: `tool_call`; its permission events (see permit); a `checkpoint` before a tool changes files; a
 * `permission_request` when the call is refused for want of a permission (headless, nobody can grant it: the
 * denied result follows); `tool_result`.
 */
async function* runTool(run: ModelRun, call: ToolCallRequest, nextCheckpoint: () => number): AsyncGenerator<Event, ChatMessage> {
  const { id, name, args, argsError } = call;
  const { toolbox } = run;
  const sideEffect = toolbox.sideEffectOf(name);
  const notice = toolbox.notice(name);
  if (notice) yield { type: 'warning', message: notice };
  yield { type: 'tool_call', id, name, ...(isJsonObject(args) ? { args } : {}), sideEffect };
  const context: ToolContext = { cwd: run.cwd, extraRoots: run.extraRoots, signal: run.signal };
  const refused = argsError === undefined ? yield* permit(run, call, sideEffect, context) : { status: 'error' as const, output: argsError, truncated: false };
  const outcome = refused ?? (yield* checkpointAndRun(run, call, context, nextCheckpoint));
  const { refusal, ...result } = outcome;
  if (refusal) {
    const permission = toolbox.permissionOf(name);
    yield { type: 'permission_request', id, name, action: 'prompt', permission, permissionMode: toolbox.permissionMode, sideEffect, ...refusal };
  }
  yield { type: 'tool_result', id, ...result };
  return { role: 'tool', toolCallId: id, name, content: outcome.output, isError: outcome.status === 'error' };
}

/**
 * The turn loop, as the events it yields: the model speaks, the tools it asked for run in order and their
 * results go back, until a turn asks for no tool (its text is `final`) or the turn limit is reached (one more
 * call asks for the answer, which is `final`, then MaxTurnsError). Nothing runs ahead of the reader: the next event is made when it is
 * pulled, so a reader that stops pulling stops the provider (backpressure). Tool calls are announced only once
 * their turn has streamed whole, so every `tool_call` is answered by its `tool_result` even when the provider fails.
 */
export async function* runAgent(run: AgentRun): AsyncGenerator<Event, void> {
  const messages: ChatMessage[] = [...(run.history ?? []), userMessage(run.prompt, run.images)];
  let checkpoints = 0;
  yield* runModelTurns(run, messages, () => ++checkpoints);
}

export function userMessage(prompt: string, images?: ImageInput[]): ChatMessage {
  return { role: 'user', content: prompt, ...(images?.length ? { images } : {}) };
}

/**
 * The model turns that answer the last message of `messages`, which they extend as they go (a conversation keeps
 * it for its next user turn). Stopped by the signal, it keeps what the model said and the calls that were
 * answered, so the next request is a valid conversation.
 */
export async function* runModelTurns(run: ModelRun, messages: ChatMessage[], nextCheckpoint: () => number): AsyncGenerator<Event, void> {
  let retries = run.answer?.retries ?? 0;
  for (let turn = 1; turn <= run.maxTurns; turn++) {
    const text = new TextSpool(run.spoolAfterChars ?? Infinity);
    const calls: ToolCallRequest[] = [];
    const reasoningBlocks: unknown[] = [];
    try {
      yield* streamInto(run, messages, calls, reasoningBlocks, (delta) => text.write(delta));
    } catch (error) {
      if (run.signal.aborted && text.length) messages.push(assistantMessage(text, [], []));
      throw error;
    }
    for (const message of uniqueCallIds(calls)) yield { type: 'warning', message };
    const answer = assistantMessage(text, calls, reasoningBlocks);
    messages.push(answer);
    if (calls.length === 0) {
      const outcome = answerOf(run, text, answer, retries--);
      if ('final' in outcome) {
        yield outcome.final;
        return;
      }
      yield { type: 'warning', message: outcome.warning };
      messages.push(userMessage(outcome.retry));
      continue;
    }
    for (const [index, call] of calls.entries()) {
      // a call not yet announced is not run once the run is stopped (or over its tool calls), and the model is not told of it
      const overLimit = run.signal.aborted ? undefined : run.meter?.nextToolCall();
      if (run.signal.aborted || overLimit) {
        answer.toolCalls = calls.slice(0, index);
        if (overLimit) throw overLimit;
        break;
      }
      messages.push(yield* runTool(run, call, nextCheckpoint));
    }
    run.signal.throwIfAborted();
  }
  yield { type: 'final', text: yield* lastAnswer(run, messages) };
  throw new MaxTurnsError(run.maxTurns);
}

/**
 * The answer of a turn that asked for no tool: its `final`; under --output-schema, one that does not conform is sent
 * back (`retry`, what the model is told, and a `warning` for the client) while retries are left, else InvalidOutputError.
 */
function answerOf(run: ModelRun, text: TextSpool, message: ChatMessage & { role: 'assistant' }, retriesLeft: number): { final: FinalEvent } | { retry: string; warning: string } {
  if (!run.answer) return { final: text.spooled ? { type: 'final', text: '', spool: text } : { type: 'final', text: text.text() } };
  // the message's content: a spooled text read back once, and kept for the retry's request
  const verdict = run.answer.check(message.content);
  if (verdict.ok) return { final: { type: 'final', text: verdict.text, structured: verdict.value } };
  const { retries } = run.answer;
  if (retriesLeft <= 0) throw new InvalidOutputError(`The answer does not conform to --output-schema after ${retries} retr${retries === 1 ? 'y' : 'ies'}: ${verdict.errors}.`);
  return { retry: retryRequest(verdict.errors), warning: `The answer does not conform to --output-schema (${verdict.errors}); the model is asked again.` };
}

/** Zero's words for the request at the turn limit (internal/agent/loop.go), and its answer when that request gets none. */
export const TURN_LIMIT_REQUEST = 'You have reached the tool-turn limit. Do not call tools. Give a concise final answer now: summarize what you completed, what you found, and any remaining blockers.';
export const NO_LAST_ANSWER = 'Agent reached maximum number of turns without a final answer.';

/**
 * At the turn limit, as in Zero, one more model call asks for the answer: its text streams and is the `final`, and
 * a tool it asks for is neither announced nor run. The tools are still described to it, as Zero does: Anthropic
 * refuses a request whose history holds tool calls but that describes no tools. A call that fails (a warning says
 * why) or says nothing gives Zero's fallback answer; only a cancellation ends the run otherwise.
 */
async function* lastAnswer(run: ModelRun, messages: ChatMessage[]): AsyncGenerator<Event, string> {
  const request = userMessage(TURN_LIMIT_REQUEST);
  const reasoningBlocks: unknown[] = [];
  let text = '';
  try {
    yield* streamInto(run, [...messages, request], [], reasoningBlocks, (delta) => (text += delta));
  } catch (error) {
    // a spent budget is the run's ending, not a failed request
    if (run.signal.aborted || error instanceof BudgetExceededError) throw error;
    yield { type: 'warning', message: `The last request for an answer at the turn limit failed: ${error instanceof Error ? error.message : String(error)}` };
    return NO_LAST_ANSWER;
  }
  if (!text.trim()) return NO_LAST_ANSWER;
  messages.push(request, { role: 'assistant', content: text, toolCalls: [], ...(reasoningBlocks.length ? { reasoningBlocks } : {}) });
  return text;
}

/**
 * The assistant's message of a turn. A spooled text is not held as a string: the message reads it back when its
 * `content` is first asked for (the next request of a turn with tool calls, or of a --multi-turn conversation).
 */
function assistantMessage(text: TextSpool, toolCalls: ToolCallRequest[], reasoningBlocks: unknown[]): ChatMessage & { role: 'assistant' } {
  const reasoning = reasoningBlocks.length ? { reasoningBlocks } : {};
  if (!text.spooled) return { role: 'assistant', content: text.text(), toolCalls, ...reasoning };
  const message = { role: 'assistant', toolCalls, ...reasoning } as ChatMessage & { role: 'assistant' };
  return Object.defineProperty(message, 'content', {
    enumerable: true,
    configurable: true,
    get: () => Object.defineProperty(message, 'content', { value: text.text(), enumerable: true, writable: true }).content,
  });
}

/**
 * Gives each call of a turn an id of its own, before permissions, results and the next request name them: a
 * repeated id (a server that numbers calls from 0 every turn, or sends none) becomes `<id>_2`, `<id>_3`, … (never an
 * id another call of the turn has). Returns a warning for each id changed.
 */
function uniqueCallIds(calls: ToolCallRequest[]): string[] {
  const given = new Set(calls.map((call) => call.id));
  const used = new Set<string>();
  const warnings: string[] = [];
  for (const call of calls) {
    if (used.has(call.id)) {
      let suffix = 2;
      while (given.has(`${call.id}_${suffix}`) || used.has(`${call.id}_${suffix}`)) suffix++;
      const unique = `${call.id}_${suffix}`;
      warnings.push(`The model gave the id ${JSON.stringify(call.id)} to more than one tool call in a turn; this ${call.name} call is ${JSON.stringify(unique)} in the events and in what the model is told.`);
      call.id = unique;
    }
    used.add(call.id);
  }
  return warnings;
}

/** One model turn streamed: text and reasoning yielded (and handed to `onText`), usage yielded, calls and reasoning blocks gathered. */
async function* streamInto(run: ModelRun, messages: ChatMessage[], calls: ToolCallRequest[], reasoningBlocks: unknown[], onText: (delta: string) => void): AsyncGenerator<Event, void> {
  run.meter?.beforeModelCall();
  for await (const chunk of streamTurn(run, messages)) {
    run.signal.throwIfAborted();
    if (chunk.type === 'text') {
      if (!chunk.delta) continue;
      onText(chunk.delta);
      yield { type: 'text', delta: chunk.delta };
    } else if (chunk.type === 'reasoning') {
      if (chunk.delta) yield { type: 'reasoning', delta: chunk.delta };
    } else if (chunk.type === 'response_start') {
      yield* run.onResponseStart?.() ?? [];
    } else if (chunk.type === 'reasoning_block') {
      reasoningBlocks.push(chunk.block);
    } else if (chunk.type === 'tool_call') {
      const { type: _type, ...call } = chunk;
      calls.push(withinDepth({ ...call, id: validCallId(call.id, calls.length) }));
    } else {
      const { type: _type, cachedTokens, costUsd: reported, ...counts } = chunk;
      const totalTokens = (counts.promptTokens ?? 0) + (counts.completionTokens ?? 0);
      const costUsd = run.meter?.charge({ ...counts, cachedTokens }) ?? reported;
      const total = counts.promptTokens !== undefined || counts.completionTokens !== undefined ? { totalTokens } : {};
      yield { type: 'usage', ...counts, ...total, ...(costUsd === undefined ? {} : { costUsd }) };
    }
  }
  // a provider of an embedding program may end its stream quietly when cancelled: that is no finished turn
  run.signal.throwIfAborted();
}
