import { Duplex } from 'node:stream';
import { createConversation, type Conversation, type ConversationItem } from '../lib/agent/conversation.js';
import { runAgent } from '../lib/agent/loop.js';
import { UsageError } from '../lib/errors.js';
import type { Event, ImageInput, PromptRequest } from '../lib/protocol/types.js';
import type { ChatMessage, Provider } from '../lib/providers/types.js';
import type { Toolbox } from '../lib/tools/registry.js';

export type AgentOptions = {
  provider: Provider;
  cwd: string;
  maxTurns?: number;
  toolbox?: Toolbox;
  sessionId?: string;
  /** More directories write tools may change (--add-dir), besides cwd. */
  extraRoots?: string[];
  /** Emitted as `warning` events right after `run_start`. */
  warnings?: string[];
  /** The run's session: called with the prompt when the run starts; names the session and gives the earlier conversation. */
  session?: { begin(prompt: string, images?: ImageInput[]): Promise<{ sessionId: string; history: ChatMessage[]; warnings: string[] }> };
  /** Aborting ends the run: the reason (a ZeroError such as CancelledError) becomes the stage's error. */
  signal?: AbortSignal;
  /**
   * --multi-turn: the writable side takes a conversation's items (lib/protocol/conversation.ts) instead of one
   * prompt, and each user turn is answered in the same run, between turn_start and turn_end.
   */
  multiTurn?: boolean;
  /** --permission-prompt stdio (with multiTurn): the calls the toolbox asks for wait for the client's answer. */
  askPermissions?: boolean;
  /** --permission-timeout: how long a request waits for its answer before the call is denied. */
  permissionTimeoutMs?: number;
};

export const DEFAULT_MAX_TURNS = 12;

function runStart({ provider, cwd }: AgentOptions, sessionId?: string): Event {
  return { type: 'run_start', ...(sessionId ? { sessionId } : {}), cwd, provider: provider.name, model: provider.model, ...(provider.apiModel ? { apiModel: provider.apiModel } : {}) };
}

function imagesRefused(provider: Provider): UsageError {
  return new UsageError(`The prompt has images, but provider ${provider.name} (model ${provider.model}) does not take images. Send it without images, or choose a provider whose model takes them.`);
}

/**
 * `{ prompt, images }` (or, with multiTurn, a conversation's items) → unstamped output events: run_start, warnings, then the agent
 * loop's events (run_start comes with the first of them, or with the failure). The readable side holds at most one event: each push waits
 * until the reader has taken the previous one, so the loop (and the provider
 * behind it) stops while downstream is full, and a failure never drops an event
 * that was already produced: the stage errors only once its buffer is empty.
 */
export function agent(options: AgentOptions): Duplex {
  const signal = options.signal ?? new AbortController().signal;
  let started = false;
  // Several may wait: in a conversation, a notice can be written while a tool's result waits for the reader.
  let wakeReaders: (() => void)[] = [];

  const wake = () => {
    const woken = wakeReaders;
    wakeReaders = [];
    for (const resolve of woken) resolve();
  };

  const readerTookAll = () => new Promise<void>((resolve) => wakeReaders.push(resolve));

  // Once cancelled, events are no longer held back: the loop is winding down and must reach its end.
  const push = async (event: Event) => {
    if (!stream.push(event) && !signal.aborted) await readerTookAll();
  };

  // run_start waits for the run's first event, so it can name the model the API answered with.
  let announced = false;
  let sessionId = options.sessionId;
  const warnings = [...(options.warnings ?? [])];
  const announce = async () => {
    if (announced) return;
    announced = true;
    await push(runStart(options, sessionId));
    for (const message of warnings) await push({ type: 'warning', message });
  };

  const emit = async (event: Event) => {
    await announce();
    await push(event);
  };

  /** The run begins with its (first) prompt: the session is opened, the earlier conversation read, the tools loaded. */
  const begin = async (prompt: string, images?: ImageInput[]) => {
    started = true;
    const start = await options.session?.begin(prompt, images);
    if (start) {
      sessionId = start.sessionId;
      warnings.push(...start.warnings);
    }
    // the tools load when a run needs them: a log tool, which builds its chain beside this one, never does
    const toolbox = options.toolbox ?? (await import('../lib/tools/registry.js')).createToolbox();
    const { provider, cwd, extraRoots } = options;
    return { history: start?.history ?? [], run: { provider, toolbox, cwd, extraRoots, maxTurns: options.maxTurns ?? DEFAULT_MAX_TURNS, signal, emit } };
  };

  // A failure never drops an event already produced: the stage errors only once the reader has taken them all.
  const failOnceRead = async (error: Error, callback: (error?: Error | null) => void) => {
    await announce();
    while (stream.readableLength > 0 && !stream.destroyed) await readerTookAll();
    callback(error);
  };

  // Refused before a session or a model request exists, as other bad input is.
  const refusesImages = (images?: ImageInput[]) => Boolean(images?.length) && options.provider.acceptsImages === false;

  let conversation: Conversation | undefined;
  let conversing = false;
  let endConversation: (() => void) | undefined;
  /** A conversation's item: the first turn starts the run; before it, a failure fails the stage as bad input does. */
  const converse = (item: ConversationItem, callback: (error?: Error | null) => void) => {
    if (item.kind === 'turn' && refusesImages(item.images)) item = { kind: 'failure', error: imagesRefused(options.provider) };
    if (!conversing && item.kind === 'failure') return callback(item.error);
    conversation ??= createConversation(signal, options.permissionTimeoutMs);
    if (!conversing && item.kind === 'turn') {
      conversing = started = true;
      // it ends after the input (final), or fails whenever the run does: a signal, a provider error, bad input
      conversation.run(async (first) => {
        const { history, run } = await begin(first.prompt, first.images);
        return { history, run: { ...run, askPermissions: options.askPermissions } };
      }).then(
        () => endConversation?.(),
        (error: Error) => failOnceRead(error, (failure) => stream.destroy(failure ?? undefined)),
      );
    }
    void conversation.put(item).then(() => callback());
  };

  const stream = new Duplex({
    readableObjectMode: true,
    writableObjectMode: true,
    readableHighWaterMark: 1,
    writableHighWaterMark: 1,
    read: wake,
    write(request: PromptRequest | ConversationItem, _encoding, callback) {
      if (options.multiTurn) return converse(request as ConversationItem, callback);
      const { prompt, images } = request as PromptRequest;
      if (refusesImages(images)) return callback(imagesRefused(options.provider));
      (async () => {
        const { history, run } = await begin(prompt, images);
        await runAgent({ ...run, prompt, images, history });
      })().then(() => callback(), (error: Error) => failOnceRead(error, callback));
    },
    final(callback) {
      endConversation = () => {
        stream.push(null);
        callback();
      };
      if (conversing) conversation!.close();
      else endConversation();
    },
    destroy(error, callback) {
      wake();
      callback(error);
    },
  });

  signal.addEventListener('abort', () => {
    wake();
    if (!started) stream.destroy(signal.reason);
  }, { once: true });

  return stream;
}
