import { setTimeout as delay } from 'node:timers/promises';
import { ProviderError, UsageError, ZeroError, describeErrno } from '../errors.js';
import { chunksOf } from '../files/bounded.js';
import { openStream } from '../files/open.js';
import { createLineFramer } from '../protocol/lines.js';
import { parseLine } from '../protocol/parse.js';
import { checkAgainstSchema, validateParsed } from '../protocol/validate.js';
import { kindOf } from '../options.js';
import { composeSteps, mapStep } from '../streams.js';
import type { Line } from '../protocol/types.js';
import type { ChatMessage } from '../protocol/chat.js';
import type { Provider, ProviderChunk, TurnRequest } from './types.js';

/** One line of a script: one model turn (lib/protocol/schemas/script.schema.json). */
export type ScriptTurn = {
  /** Streamed before the text, as reasoning (a `reasoning` event each, in schema version 2). */
  reasoning?: string[];
  chunks?: string[];
  text?: string;
  toolCalls?: { id?: string; name: string; args: unknown }[];
  usage?: { promptTokens?: number; completionTokens?: number; cachedTokens?: number };
  error?: { message: string; status?: number };
  delayMs?: number;
  expect?: { contains?: string[]; images?: number };
};

/**
 * The most a script may hold by default: it is parsed whole before the run starts, and its turns take up to six
 * times its size in memory (64 MiB of one-word turns: 400 MB).
 */
export const MAX_SCRIPT_BYTES = 64 * 1024 * 1024;

/**
 * How a script is read: its lines at most `maxLineBytes` (--max-line-bytes), the whole at most `maxBytes`
 * (MAX_SCRIPT_BYTES), the read stopped when `signal` aborts.
 */
export type ScriptReading = { maxLineBytes?: number; maxBytes?: number; signal?: AbortSignal };

/**
 * Reads and validates a JSONL script, from any file that can be read in order (a FIFO, `<(cmd)` included); any
 * problem is a usage error naming the file and line. It is bounded as it is read: a line over `maxLineBytes`, or
 * more than `maxBytes` in all (`--script <(yes '{}')`; `--script /dev/zero` fails at its first line), fails before more is read.
 */
export async function loadScript(path: string, { maxLineBytes, maxBytes = MAX_SCRIPT_BYTES, signal }: ScriptReading = {}): Promise<ScriptTurn[]> {
  const label = `script ${path}`;
  // No depth limit here: a script stands in for a model, and too-deep tool arguments are the agent loop's to answer.
  const turn = mapStep((line: Line) => validateParsed<ScriptTurn>('script', parseLine(line, label, { maxDepth: Infinity }), label));
  // Composed, each line is checked as it is framed: the first bad line is the one reported.
  const step = composeSteps<Buffer, ScriptTurn>([createLineFramer({ label, maxLineBytes }), turn]);
  const turns: ScriptTurn[] = [];
  const emit = (scriptTurn: ScriptTurn) => void turns.push(scriptTurn);
  const tooLong = () => new UsageError(`The script ${path} is longer than ${maxBytes} bytes, the most a script may hold.`);
  try {
    for await (const chunk of chunksOf(await openStream(path), { maxBytes, tooLong, signal })) step.write(chunk, emit);
  } catch (error) {
    if (error instanceof ZeroError) throw error;
    throw new UsageError(`Cannot read the script ${path}: ${describeErrno(error as NodeJS.ErrnoException)}`);
  }
  step.end?.(emit);
  return turns;
}

/** Everything the model can see at this turn, as one searchable text. */
function conversationText(messages: ChatMessage[]): string {
  return messages
    .map((message) => {
      if (message.role === 'assistant') return [message.content, ...message.toolCalls.map((call) => `${call.name} ${JSON.stringify(call.args)}`)].join('\n');
      return message.content;
    })
    .join('\n');
}

const imageCount = (messages: ChatMessage[]) => messages.reduce((sum, message) => sum + (message.role === 'user' ? (message.images?.length ?? 0) : 0), 0);

/** A turn's `expect`: what the conversation must hold when the turn is played; a miss fails the run as a provider would. */
function checkExpectations(number: number, turn: ScriptTurn, messages: ChatMessage[]): void {
  const seen = conversationText(messages);
  for (const expected of turn.expect?.contains ?? []) {
    if (!seen.includes(expected)) throw new ProviderError(`Scripted turn ${number} expected the conversation to contain ${JSON.stringify(expected)}, but it does not.`);
  }
  const images = turn.expect?.images;
  if (images !== undefined && imageCount(messages) !== images) {
    throw new ProviderError(`Scripted turn ${number} expected ${images} image(s) in the conversation, but it holds ${imageCount(messages)}.`);
  }
}

/**
 * A deterministic, offline provider that plays a script turn by turn: the fixture
 * of the test suite and a way for client authors to test without a model.
 */
export class ScriptedProvider implements Provider {
  readonly name = 'scripted';
  readonly model: string;
  readonly acceptsImages = true;
  /** Chunks handed to the agent so far (tests watch it to see backpressure). */
  handedOut = 0;
  private nextTurn = 0;
  /** The turns not played yet: a turn is let go of once it is played, and each delta once it is handed out. */
  private readonly turns: (ScriptTurn | undefined)[];

  constructor(turns: ScriptTurn[], options: { model?: string } = {}) {
    // as a script file's lines are: a program's own turns that the CLI would refuse are refused here, not played as nothing
    if (!Array.isArray(turns)) throw new TypeError(`ScriptedProvider: turns must be an array of script turns, not ${kindOf(turns)}.`);
    turns.forEach((turn, index) => {
      const verdict = checkAgainstSchema('script', turn);
      if (!verdict.ok) throw new TypeError(`ScriptedProvider: turns[${index}] is not a script turn: ${verdict.field}: ${verdict.problem}.`);
    });
    this.turns = [...turns];
    this.model = options.model ?? 'scripted';
  }

  async *turn(request: TurnRequest, signal: AbortSignal): AsyncGenerator<ProviderChunk> {
    const number = ++this.nextTurn;
    const { deltas, delayMs, error, toolCalls = [], usage } = this.play(number, request);
    // each delta let go of once handed out: the agent holds a huge scripted answer as it streams, not this too
    for (let chunk = deltas.shift(); chunk; chunk = deltas.shift()) {
      if (delayMs) await delay(delayMs, undefined, { signal });
      this.handedOut++;
      yield chunk;
    }
    if (error) {
      const status = error.status === undefined ? '' : ` (HTTP ${error.status})`;
      throw new ProviderError(`Scripted provider failed at turn ${number}${status}: ${error.message}`);
    }
    for (const [index, call] of toolCalls.entries()) {
      this.handedOut++;
      yield { type: 'tool_call', id: call.id ?? `call_${number}_${index + 1}`, name: call.name, args: call.args };
    }
    if (usage) {
      this.handedOut++;
      yield { type: 'usage', ...usage };
    }
  }

  /** Turn `number`, taken out of the script (checked against the conversation): its deltas in order, and the rest. */
  private play(number: number, request: TurnRequest): Omit<ScriptTurn, 'reasoning' | 'chunks' | 'text'> & { deltas: ProviderChunk[] } {
    const turn = this.turns[number - 1];
    if (!turn) throw new ProviderError(`Scripted provider has no turn ${number}: the script has ${this.turns.length} turn(s).`);
    this.turns[number - 1] = undefined;
    checkExpectations(number, turn, request.messages);
    const { reasoning = [], chunks, text, ...rest } = turn;
    const deltas: ProviderChunk[] = reasoning.map((delta) => ({ type: 'reasoning', delta }));
    for (const delta of chunks ?? (text ? [text] : [])) deltas.push({ type: 'text', delta });
    return { ...rest, deltas };
  }
}

export async function createScriptedProvider(options: { script: string; model?: string } & ScriptReading): Promise<ScriptedProvider> {
  return new ScriptedProvider(await loadScript(options.script, options), { model: options.model });
}
