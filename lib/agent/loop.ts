import { MaxTurnsError, ProviderError, ZeroError } from '../errors.js';
import type { Event, ImageInput } from '../protocol/types.js';
import type { ChatMessage, Provider, ProviderChunk, ToolCallRequest } from '../providers/types.js';
import type { Toolbox } from '../tools/registry.js';
import type { ToolOutcome } from '../tools/types.js';
import { isTooDeep, TOO_DEEP } from '../protocol/depth.js';
import { isJsonObject } from '../protocol/validate.js';

export type AgentRun = {
  prompt: string;
  /** Sent with the prompt, in the first user message. */
  images?: ImageInput[];
  /** The conversation so far (a resumed session's), before this prompt. */
  history?: ChatMessage[];
  provider: Provider;
  toolbox: Toolbox;
  cwd: string;
  extraRoots?: string[];
  maxTurns: number;
  signal: AbortSignal;
  /** Resolves when the event has been taken downstream: this is how backpressure reaches the provider. */
  emit: (event: Event) => Promise<void>;
};

/** One model turn's chunks; a failure that is not already a ZeroError is the provider's. */
async function* streamTurn(run: AgentRun, messages: ChatMessage[]): AsyncGenerator<ProviderChunk> {
  try {
    yield* run.provider.turn({ messages, tools: run.toolbox.definitions() }, run.signal);
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
  return { id: call.id, name: call.name, args: undefined, argsError: `The tool arguments are ${TOO_DEEP}; send them with less nesting.` };
}

async function checkpointAndRun(run: AgentRun, { id, name, args }: ToolCallRequest, nextCheckpoint: () => number): Promise<ToolOutcome> {
  const context = { cwd: run.cwd, extraRoots: run.extraRoots, signal: run.signal };
  const files = await run.toolbox.targets({ id, name, args }, context);
  if (files.length) await run.emit({ type: 'checkpoint', checkpoint: { sequence: nextCheckpoint(), tool: name, files } });
  return run.toolbox.run({ id, name, args }, context);
}

/**
 * Runs one call: `tool_call`; a `checkpoint` before a tool changes files; a `permission_request` when the call is
 * refused for want of a permission (headless, nobody can grant it: the denied result follows); `tool_result`.
 */
async function runTool(run: AgentRun, call: ToolCallRequest, nextCheckpoint: () => number): Promise<ChatMessage> {
  const { id, name, args, argsError } = call;
  const { toolbox } = run;
  const sideEffect = toolbox.sideEffectOf(name);
  await run.emit({ type: 'tool_call', id, name, ...(isJsonObject(args) ? { args } : {}), sideEffect });
  const outcome = argsError === undefined ? await checkpointAndRun(run, call, nextCheckpoint) : { status: 'error' as const, output: argsError, truncated: false };
  const { refusal, ...result } = outcome;
  if (refusal) {
    const permission = toolbox.permissionOf(name);
    await run.emit({ type: 'permission_request', id, name, action: 'prompt', permission, permissionMode: toolbox.permissionMode, sideEffect, ...refusal });
  }
  await run.emit({ type: 'tool_result', id, ...result });
  return { role: 'tool', toolCallId: id, name, content: outcome.output, isError: outcome.status === 'error' };
}

/**
 * The turn loop: the model speaks, the tools it asked for run in order and their
 * results go back, until a turn asks for no tool (its text is `final`) or the
 * turn limit is reached (`final` with the last text, then MaxTurnsError).
 * Tool calls are announced only once their turn has streamed whole, so every
 * `tool_call` is answered by its `tool_result` even when the provider fails.
 */
export async function runAgent(run: AgentRun): Promise<void> {
  const images = run.images?.length ? { images: run.images } : {};
  const messages: ChatMessage[] = [...(run.history ?? []), { role: 'user', content: run.prompt, ...images }];
  let checkpoints = 0;
  const nextCheckpoint = () => ++checkpoints;
  let text = '';
  for (let turn = 1; turn <= run.maxTurns; turn++) {
    text = '';
    const calls: ToolCallRequest[] = [];
    const reasoningBlocks: unknown[] = [];
    for await (const chunk of streamTurn(run, messages)) {
      run.signal.throwIfAborted();
      if (chunk.type === 'text') {
        if (!chunk.delta) continue;
        text += chunk.delta;
        await run.emit({ type: 'text', delta: chunk.delta });
      } else if (chunk.type === 'reasoning') {
        if (chunk.delta) await run.emit({ type: 'reasoning', delta: chunk.delta });
      } else if (chunk.type === 'reasoning_block') {
        reasoningBlocks.push(chunk.block);
      } else if (chunk.type === 'tool_call') {
        const { type: _type, ...call } = chunk;
        calls.push(withinDepth(call));
      } else {
        const { type: _type, ...counts } = chunk;
        const totalTokens = (counts.promptTokens ?? 0) + (counts.completionTokens ?? 0);
        await run.emit({ type: 'usage', ...counts, ...(counts.promptTokens !== undefined || counts.completionTokens !== undefined ? { totalTokens } : {}) });
      }
    }
    messages.push({ role: 'assistant', content: text, toolCalls: calls, ...(reasoningBlocks.length ? { reasoningBlocks } : {}) });
    if (calls.length === 0) {
      await run.emit({ type: 'final', text });
      return;
    }
    for (const call of calls) messages.push(await runTool(run, call, nextCheckpoint));
    run.signal.throwIfAborted();
  }
  await run.emit({ type: 'final', text });
  throw new MaxTurnsError(run.maxTurns);
}
