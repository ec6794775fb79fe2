import { MaxTurnsError, ZeroError } from '../errors.js';
import type { Event, ImageInput, TurnEndEvent } from '../protocol/types.js';
import type { ChatMessage } from '../protocol/chat.js';
import { runModelTurns, userMessage, type ModelRun, type PermissionDesk } from './loop.js';
import { createPermissionDesk, type PermissionResponse } from './permission-desk.js';

/** What the conversation's input gives (lib/protocol/conversation.ts): user turns, control events, or the input's failure. */
export type ConversationItem =
  | { kind: 'turn'; prompt: string; images?: ImageInput[] }
  | { kind: 'interrupt' }
  | ({ kind: 'permission' } & PermissionResponse)
  | { kind: 'failure'; error: Error };

/** Why a turn stopped when the client sent `interrupt`: the reason its running tools are given too. */
export class TurnInterrupted extends ZeroError {
  constructor() {
    super('interrupted', 'Interrupted by the client.', 130, true);
  }
}

export const INPUT_CLOSED = 'No answer: the input ended before the client answered the permission_request.';

/** User turns waiting beyond this many hold the input back (stdin is read no further) until one is taken. */
export const MAX_QUEUED_TURNS = 64;

/**
 * While a permission_request waits, the input is read on past MAX_QUEUED_TURNS (its answer may come after
 * turns), keeping turns up to this many bytes; later turns are not kept (each ends at once, interrupted).
 */
export const MAX_HELD_BYTES = 8 * 1024 * 1024;

type QueuedTurn = {
  number: number;
  prompt: string;
  images?: ImageInput[];
  interrupted: boolean;
  /** What it holds: its prompt's and images' bytes. */
  bytes: number;
  /** Turns from `number` on that arrived past MAX_HELD_BYTES during a wait: not kept, only counted. */
  dropped?: number;
};

const bytesOf = (prompt: string, images: ImageInput[] = []) => Buffer.byteLength(prompt) + images.reduce((sum, image) => sum + image.data.length, 0);

const droppedWarning = (from: number, count: number) =>
  `${count === 1 ? `Turn ${from}` : `Turns ${from} to ${from + count - 1}`} arrived while a permission_request waited, with ${MAX_HELD_BYTES / 1024 / 1024} MiB of input held already: not kept, ${count === 1 ? 'it ends' : 'they end'} as interrupted.`;

export type ConversationRun = Omit<ModelRun, 'permissions'> & {
  /** --permission-prompt stdio: calls the toolbox asks for wait for the client's permission_response. */
  askPermissions?: boolean;
};

export type Conversation = {
  /** An item of the input; resolves once the conversation can take the next (a full queue of turns holds the input). */
  put(item: ConversationItem): Promise<void>;
  /** The input ended: the turns received are still answered, then the conversation ends. */
  close(): void;
  /**
   * The events of the turns as they come, the first with the history and the run `begin` gives; they end with the
   * input, or fail with what ends the run (the signal's reason, the input's failure, a provider error).
   */
  run(begin: (first: { prompt: string; images?: ImageInput[] }) => Promise<{ history: ChatMessage[]; run: ConversationRun }>): AsyncGenerator<Event, void>;
};

/**
 * A conversation (--multi-turn): user turns answered one after the other in one run, with one history; each
 * between `turn_start` and `turn_end`. An `interrupt` stops every turn received before it that has not ended:
 * the one running (its tools are stopped, what it produced stays) and those still waiting, which end at once.
 * Turns sent after it run as usual. A failure of the input stops the turn running and ends the run with it.
 */
export function createConversation(signal: AbortSignal, permissionTimeoutMs?: number): Conversation {
  const queue: QueuedTurn[] = [];
  let received = 0;
  /** The bytes the queued turns hold. */
  let held = 0;
  let ended = false;
  let failure: Error | undefined;
  /** The turn taken from the queue (it may still wait for begin), and the controller of its model turns once they run. */
  let taken: QueuedTurn | undefined;
  let current: AbortController | undefined;
  let wakeRunner: (() => void) | undefined;
  let wakeWriter: (() => void) | undefined;
  const notices: string[] = [];
  const desk = createPermissionDesk((message) => void notices.push(message), permissionTimeoutMs);

  const wake = () => {
    wakeRunner?.();
    wakeRunner = undefined;
  };
  /** Lets the input be read again: a full queue holds it, but never while an answer to a request must get through, nor once the conversation ends. */
  const releaseWriter = () => {
    wakeWriter?.();
    wakeWriter = undefined;
  };
  let asking = 0;
  const permissions: PermissionDesk = {
    remembered: desk.remembered,
    ask(call, askSignal) {
      asking += 1;
      releaseWriter();
      return desk.ask(call, askSignal).finally(() => (asking -= 1));
    },
  };

  const put = (item: ConversationItem): Promise<void> => {
    if (item.kind === 'turn') {
      const bytes = bytesOf(item.prompt, item.images);
      const last = queue.at(-1);
      if (asking === 0 || held + bytes <= MAX_HELD_BYTES) {
        queue.push({ number: ++received, prompt: item.prompt, images: item.images, interrupted: false, bytes });
        held += bytes;
      } else if (last?.dropped && last.number + last.dropped === received + 1) {
        received += 1;
        last.dropped += 1;
      } else {
        queue.push({ number: ++received, prompt: '', interrupted: true, bytes: 0, dropped: 1 });
      }
      wake();
    } else if (item.kind === 'interrupt') {
      for (const turn of [...queue, ...(taken ? [taken] : [])]) turn.interrupted = true;
      current?.abort(new TurnInterrupted());
    } else if (item.kind === 'permission') {
      desk.answer(item);
    } else {
      failure ??= item.error;
      current?.abort(item.error);
      desk.close(item.error.message);
      wake();
    }
    if (queue.length < MAX_QUEUED_TURNS || asking > 0 || failure || ended) return Promise.resolve();
    return new Promise((resolve) => (wakeWriter = resolve));
  };

  async function nextTurn(signal: AbortSignal): Promise<QueuedTurn | undefined> {
    for (;;) {
      if (failure) throw failure;
      signal.throwIfAborted();
      const turn = (taken = queue.shift());
      if (turn) {
        held -= turn.bytes;
        if (queue.length < MAX_QUEUED_TURNS) releaseWriter();
        return turn;
      }
      if (ended) return undefined;
      await new Promise<void>((resolve) => (wakeRunner = resolve));
    }
  }

  async function* run(begin: Parameters<Conversation['run']>[0]): AsyncGenerator<Event, void> {
    signal.addEventListener('abort', () => (wake(), releaseWriter()), { once: true });
    const first = await nextTurn(signal);
    if (!first) return;
    const { history, run: agentRun } = await begin(first);
    const messages = [...history];
    let checkpoints = 0;
    const nextCheckpoint = () => ++checkpoints;
    for (let turn: QueuedTurn | undefined = first; turn; turn = await nextTurn(signal)) {
      if (turn.dropped) {
        yield* notes();
        yield { type: 'warning', message: droppedWarning(turn.number, turn.dropped) };
        for (let number = turn.number; number < turn.number + turn.dropped; number++) {
          yield { type: 'turn_start', turn: number, content: '' };
          yield { type: 'turn_end', turn: number, status: 'interrupted' };
        }
        continue;
      }
      const { number, prompt, images } = turn;
      // turn_start comes with the turn's first event, as run_start does with the run's (the model the API names)
      let opened = false;
      const framed = function* (event: Event): Generator<Event> {
        if (!opened) yield { type: 'turn_start', turn: number, content: prompt };
        opened = true;
        yield* notes();
        yield event;
      };
      let status: TurnEndEvent['status'] = 'interrupted';
      if (!turn.interrupted) {
        // a turn interrupted before it ran is no part of the conversation the model sees
        messages.push(userMessage(prompt, images));
        const answering = answer(agentRun, messages, nextCheckpoint);
        try {
          for (let next = await answering.next(); ; next = await answering.next()) {
            if (next.done) {
              status = next.value;
              break;
            }
            yield* framed(next.value);
          }
        } catch (error) {
          // what ends the run (a signal, a bad input line, a provider failure) ends the turn it cut first: every
          // turn_start a client saw has its turn_end, before the run's error and run_end
          if (opened) yield { type: 'turn_end', turn: number, status: 'interrupted' };
          throw error;
        }
      }
      yield* framed({ type: 'turn_end', turn: number, status });
    }
    yield* notes();
  }

  /** The notices (a permission_response for no request) as warnings, with the next event. */
  function* notes(): Generator<Event> {
    while (notices.length) yield { type: 'warning', message: notices.shift()! };
  }

  /** One user turn's model turns, then how it ended; or the failure that ends the run. */
  async function* answer(agentRun: ConversationRun, messages: ChatMessage[], nextCheckpoint: () => number): AsyncGenerator<Event, TurnEndEvent['status']> {
    const controller = (current = new AbortController());
    const turnSignal = AbortSignal.any([agentRun.signal, controller.signal]);
    try {
      yield* runModelTurns({ ...agentRun, signal: turnSignal, ...(agentRun.askPermissions ? { permissions } : {}) }, messages, nextCheckpoint);
      return 'success';
    } catch (error) {
      if (failure) throw failure;
      if (agentRun.signal.aborted || !(controller.signal.aborted || error instanceof MaxTurnsError)) throw error;
      return controller.signal.aborted ? 'interrupted' : 'incomplete';
    } finally {
      current = undefined;
    }
  }

  return {
    put,
    close() {
      ended = true;
      desk.close(INPUT_CLOSED);
      wake();
      releaseWriter();
    },
    run,
  };
}
