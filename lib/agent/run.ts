import { UsageError } from '../errors.js';
import type { Event, ImageInput, PromptRequest } from '../protocol/types.js';
import type { ChatMessage } from '../protocol/chat.js';
import type { Provider } from '../providers/types.js';
import type { Toolbox } from '../tools/registry.js';
import { createConversation, type ConversationItem } from './conversation.js';
import { runAgent, type ModelRun } from './loop.js';
import { createMeter, withDeadline, type RunLimits } from './limits.js';
import type { AnswerSchema } from './answer-schema.js';

export type AgentOptions = {
  provider: Provider;
  cwd: string;
  maxTurns?: number;
  toolbox?: Toolbox;
  sessionId?: string;
  /** More directories write tools may change (--add-dir), besides cwd. */
  extraRoots?: string[];
  /** Yielded as `warning` events right after `run_start`. */
  warnings?: string[];
  /** The run's session: called with the prompt when the run starts; names the session and gives the earlier conversation. */
  session?: { begin(prompt: string, images?: ImageInput[]): Promise<{ sessionId?: string; history: ChatMessage[]; warnings: string[] }> };
  /** Aborting ends the run: the reason (a ZeroError such as CancelledError) is what the events fail with. */
  signal?: AbortSignal;
  /**
   * --multi-turn: the run takes a conversation's items (lib/protocol/conversation.ts) instead of one prompt, and
   * each user turn is answered in the same run, between turn_start and turn_end.
   */
  multiTurn?: boolean;
  /** --permission-prompt stdio (with multiTurn): the calls the toolbox asks for wait for the client's answer. */
  askPermissions?: boolean;
  /** --permission-timeout: how long a request waits for its answer before the call is denied. */
  permissionTimeoutMs?: number;
  /** --output-schema: the answer must conform (lib/agent/answer-schema.ts). */
  answer?: AnswerSchema;
  /** The model's price and the run's budgets and deadline (--max-budget-usd, --max-tool-calls, --run-timeout). */
  limits?: RunLimits;
  /**
   * Opt-in (zero exec sets it): a turn's text past this many characters is spooled to an encrypted temporary file
   * instead of held, and its `final` carries it as `spool` (a TextSpool) with `text` ''. docs/api.md.
   */
  spoolAfterChars?: number;
};

/** Zero's default turn limit (internal/config/resolver.go). */
export const DEFAULT_MAX_TURNS = 50;

/** What goes into a run, and the events that come out: pulling the next event is what makes it (backpressure). */
export type AgentRunExchange = {
  /** One `{ prompt, images }` (or, with multiTurn, a conversation's item); resolves once the run can take the next. */
  put(item: PromptRequest | ConversationItem): Promise<void>;
  /** The input is over. */
  close(): void;
  /** run_start, the warnings, then the loop's events; they fail with what ends the run, after every event it produced. */
  events: AsyncGenerator<Event, void>;
};

function imagesRefused(provider: Provider): UsageError {
  return new UsageError(`The prompt has images, but provider ${provider.name} (model ${provider.model}) does not take images. Send it without images, or choose a provider whose model takes them.`);
}

/**
 * A run of the agent around its loop (lib/agent/loop.ts) or conversation: the session opened with the (first)
 * prompt, the tools loaded, and `run_start` (with the session's id and the model the API names) and the warnings
 * before the first event, or before the failure of a run that began. A failure before the run began (bad input,
 * images the provider cannot take, a signal) comes alone: there is no run to start.
 */
export function createAgentRun(options: AgentOptions): AgentRunExchange {
  const deadline = withDeadline(options.signal ?? new AbortController().signal, options.limits?.runTimeoutMs);
  const { signal } = deadline;
  const meter = createMeter(options.limits);
  let sessionId = options.sessionId;
  const warnings = [...(options.warnings ?? [])];
  let began = false;
  let announcedYet = false;

  /** The run begins with its (first) prompt: the session is opened, the earlier conversation read, the tools loaded. */
  const begin = async (prompt: string, images?: ImageInput[]) => {
    began = true;
    const start = await options.session?.begin(prompt, images);
    if (start) {
      sessionId = start.sessionId;
      warnings.push(...start.warnings);
    }
    // the tools load when a run needs them: a log tool, which builds its chain beside this one, never does
    const toolbox = options.toolbox ?? (await import('../tools/registry.js')).createToolbox();
    const { provider, cwd, extraRoots } = options;
    const run: Omit<ModelRun, 'permissions'> = { provider, toolbox, cwd, extraRoots, maxTurns: options.maxTurns ?? DEFAULT_MAX_TURNS, signal, meter, spoolAfterChars: options.spoolAfterChars, onResponseStart: announce, ...(options.answer ? { answer: options.answer } : {}) };
    return { history: start?.history ?? [], run };
  };

  /**
   * run_start and the warnings, once: when the first model response begins (the provider tells, and the API has
   * named its model; not in a conversation), else with the run's first event or its failure. Written while the model's first text is still
   * on its way, they also take the output path's first-time costs off that text.
   */
  function* announce(): Generator<Event> {
    if (announcedYet) return;
    announcedYet = true;
    const { provider, cwd } = options;
    yield { type: 'run_start', ...(sessionId ? { sessionId } : {}), cwd, provider: provider.name, model: provider.model, ...(provider.apiModel ? { apiModel: provider.apiModel } : {}) };
    for (const message of warnings) yield { type: 'warning', message };
  }

  async function* announced(events: AsyncGenerator<Event, void>): AsyncGenerator<Event, void> {
    try {
      for await (const event of events) {
        yield* announce();
        yield event;
      }
    } catch (error) {
      if (began) yield* announce();
      throw error;
    } finally {
      deadline.clear();
    }
  }

  const refusesImages = (images?: ImageInput[]) => Boolean(images?.length) && options.provider.acceptsImages === false;

  if (options.multiTurn) {
    const conversation = createConversation(signal, options.permissionTimeoutMs);
    const events = conversation.run(async (first) => {
      const { history, run } = await begin(first.prompt, first.images);
      // a conversation opens each turn with the turn's first event (turn_start): run_start keeps to the first event too
      return { history, run: { ...run, onResponseStart: undefined, askPermissions: options.askPermissions } };
    });
    return {
      put(item) {
        const given = item as ConversationItem;
        const refused = given.kind === 'turn' && refusesImages(given.images);
        return conversation.put(refused ? { kind: 'failure', error: imagesRefused(options.provider) } : given);
      },
      close: () => conversation.close(),
      events: announced(events),
    };
  }

  // One prompt: the run starts when it comes; an input that ends without one (it failed upstream) has no events.
  let given: PromptRequest | undefined;
  let closed = false;
  let wake: (() => void) | undefined;
  const arrived = () => {
    wake?.();
    wake = undefined;
  };
  signal.addEventListener('abort', arrived, { once: true });
  async function* single(): AsyncGenerator<Event, void> {
    while (!given && !closed) {
      signal.throwIfAborted();
      await new Promise<void>((resolve) => (wake = resolve));
    }
    signal.throwIfAborted();
    if (!given) return;
    const { prompt, images } = given;
    if (refusesImages(images)) throw imagesRefused(options.provider);
    const { history, run } = await begin(prompt, images);
    yield* runAgent({ ...run, prompt, images, history });
  }
  return {
    put(item) {
      given ??= item as PromptRequest;
      arrived();
      return Promise.resolve();
    },
    close() {
      closed = true;
      arrived();
    },
    events: announced(single()),
  };
}
