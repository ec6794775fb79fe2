import type { ChatMessage, ToolCallRequest } from '../protocol/chat.js';
import { isJsonObject } from '../protocol/json-object.js';
import type { ImageInput } from '../protocol/types.js';

type Record_ = Record<string, unknown>;

/** One model turn as the events tell it: its text, then its tool calls and their results. */
type Turn = {
  text: string;
  /** Past the text: tool calls have begun, so a later text or usage event is the next turn. */
  inTools: boolean;
  calls: ToolCallRequest[];
  results: { id: string; content: string; isError: boolean }[];
};

const isString = (value: unknown): value is string => typeof value === 'string';

/** The result the model is given for a recorded call that has none. */
export const UNANSWERED = 'No result was recorded for this call: the run ended while it ran, so it may have run in part, or not at all.';

/** What may come between a user message and its turn's end while the model has said and done nothing. */
const BEFORE_ANY_WORK = new Set<unknown>(['run_start', 'turn_start', 'turn_end', 'heartbeat', 'warning']);

const isImage = (value: unknown): value is ImageInput => isJsonObject(value) && isString(value.mediaType) && isString(value.data);

/** The images a recorded user message carried (version 2), so a resumed conversation sends them again. */
function imagesOf(event: Record_): { images?: ImageInput[] } {
  const images = Array.isArray(event.images) ? event.images.filter(isImage) : [];
  return images.length ? { images } : {};
}

/**
 * The whole conversation recorded in a session's events, as real messages:
 * - a recorded prompt (or a user `message` input event) → a user message, and so is the `turn_start` of a
 *   conversation's later turns (--multi-turn; their images are not recorded);
 * - a model turn's text deltas → one assistant message, with the turn's tool
 *   calls (id, name, args) → then one tool message per tool_result, in order.
 * A turn ends at its tool calls (the next text or usage event starts another),
 * at `final`, or where its run ends (error, run_end, the next prompt, the end of
 * the events): a run that failed mid-way counts up to where it stopped. A tool
 * call never answered (the run was killed while it ran) is answered UNANSWERED;
 * a result without its call is dropped, as is an assistant turn with neither
 * text nor calls. A call whose id this turn already answered starts another turn.
 *
 * A conversation's user turn interrupted before the model said anything (a queued turn an `interrupt`
 * cancelled: `turn_start`, then at once `turn_end {status: "interrupted"}`) was never part of the conversation
 * the model saw, and is not resent: its message is dropped (the run's first turn's is its stored prompt).
 *
 * Events cannot tell apart one turn with calls A and B from two turns without
 * text or usage, calling A then B; they are read as one turn (both are valid
 * conversations). Real providers report usage every turn, which separates them.
 */
export function conversationFromEvents(events: Iterable<object>): ChatMessage[] {
  const messages: ChatMessage[] = [];
  let turn: Turn | undefined;
  /** The user message of the last prompt or turn_start, while nothing but it has come since (else undefined). */
  let unanswered: ChatMessage | undefined;
  const said = (message: ChatMessage) => {
    messages.push(message);
    unanswered = message;
  };

  const close = () => {
    if (!turn) return;
    const { calls, results } = turn;
    if (turn.text || calls.length) messages.push({ role: 'assistant', content: turn.text, toolCalls: calls });
    for (const call of calls) {
      // a call the run never answered (it was killed while the call ran): the model is told, as the API needs an answer
      const result = results.find((answer) => answer.id === call.id) ?? { content: UNANSWERED, isError: true };
      messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: result.content, isError: result.isError });
    }
    turn = undefined;
  };
  const open = (): Turn => (turn ??= { text: '', inTools: false, calls: [], results: [] });

  for (const event of events) {
    const e = event as Record_;
    if (!BEFORE_ANY_WORK.has(e.type)) unanswered = undefined;
    switch (e.type) {
      case 'prompt':
      case 'message':
        close();
        if (isString(e.content) && (e.type === 'prompt' || e.role === 'user')) said({ role: 'user', content: e.content, ...imagesOf(e) });
        break;
      case 'text':
        if (turn?.inTools) close();
        if (isString(e.delta)) open().text += e.delta;
        break;
      case 'usage':
        if (turn?.inTools) close();
        break;
      case 'tool_call': {
        if (!isString(e.id) || !isString(e.name)) break;
        // an id already answered in this turn is a later model turn's call (a server that numbers each turn's calls from 0)
        if (turn?.results.some((result) => result.id === e.id)) close();
        const current = open();
        current.inTools = true;
        if (!current.calls.some((call) => call.id === e.id)) current.calls.push({ id: e.id, name: e.name, args: isJsonObject(e.args) ? e.args : {} });
        break;
      }
      case 'tool_result': {
        const id = e.id;
        if (!turn || !isString(id) || !turn.calls.some((call) => call.id === id) || turn.results.some((result) => result.id === id)) break;
        turn.results.push({ id, content: isString(e.output) ? e.output : '', isError: e.status === 'error' });
        break;
      }
      case 'final': {
        // The answer of a turn without tool calls; after tool calls (turn limit) its text was recorded already.
        const last = messages[messages.length - 1];
        if (!turn && isString(e.text) && e.text && last?.role === 'user') messages.push({ role: 'assistant', content: e.text, toolCalls: [] });
        else if (turn && !turn.inTools && !turn.text && isString(e.text)) turn.text = e.text;
        close();
        break;
      }
      case 'turn_start':
        // a conversation's later user turns (--multi-turn); the first is the run's stored prompt, before run_start
        close();
        if (typeof e.turn === 'number' && e.turn > 1 && isString(e.content)) said({ role: 'user', content: e.content });
        break;
      case 'turn_end':
        close();
        if (e.status === 'interrupted' && unanswered && messages[messages.length - 1] === unanswered) messages.pop();
        unanswered = undefined;
        break;
      case 'run_start':
      case 'error':
      case 'run_end':
        close();
        break;
    }
  }
  close();
  return messages;
}

/** What a message costs in a context budget: its content, plus the names and arguments of its tool calls. */
export function messageChars(message: ChatMessage): number {
  if (message.role !== 'assistant') return message.content.length;
  return message.toolCalls.reduce((sum, call) => sum + call.name.length + JSON.stringify(call.args ?? {}).length, message.content.length);
}

export function historyChars(messages: readonly ChatMessage[]): number {
  return messages.reduce((sum, message) => sum + messageChars(message), 0);
}

/**
 * Drops whole user turns (a user message and everything up to the next one) from
 * the oldest end until the history fits maxChars (see messageChars), so no tool
 * message loses its assistant call. If the newest turn alone does not fit, nothing is kept.
 */
export function trimHistory(messages: readonly ChatMessage[], maxChars: number): { messages: ChatMessage[]; trimmed: boolean } {
  let total = historyChars(messages);
  let start = 0;
  while (total > maxChars && start < messages.length) {
    // Drop the first message, then everything up to the next user message.
    do total -= messageChars(messages[start++]);
    while (start < messages.length && messages[start].role !== 'user');
  }
  return { messages: messages.slice(start), trimmed: start > 0 };
}
