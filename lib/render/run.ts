import { MODEL_WORK } from '../logs/serialize.js';
import { createTurnCounter } from '../logs/turns.js';
import type { Emit } from '../streams.js';
import { notePermission } from './permissions.js';
import type { ShownText, Redactor } from './shown.js';
import type { Piece, RunStart, RunSummary, Tokens, ToolCall, ToolResult } from './transcript.js';

/**
 * One run of a transcript, as its events come: each piece is handed on as soon as it is whole, so a run holds
 * only the turn being said (its reasoning and text, up to SHOWN_CHARS each) and the calls waiting for their
 * results (at most MAX_WAITING_CALLS), never the turns before.
 */

type Obj = Record<string, unknown>;

/**
 * The output event types a transcript knows (docs/protocol.md §3.2). A checkpoint shows nothing: it says what the
 * call after it changes, which the call's result shows; nor does a heartbeat. A conversation's turn_start and
 * turn_end (§12) frame its user turns; permission events are noted on their call (lib/render/permissions.ts).
 */
export const EVENT_TYPES = new Set(['run_start', 'warning', 'reasoning', 'text', 'usage', 'tool_call', 'checkpoint', 'permission_request', 'permission_decision', 'tool_result', 'final', 'error', 'turn_start', 'turn_end', 'heartbeat', 'run_end']);

export const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/**
 * Calls shown in the order they were made, each once its result is in: a call waits behind the ones before it.
 * Zero runs calls one by one; past this many waiting (a log made by hand), the oldest is shown without its result.
 */
export const MAX_WAITING_CALLS = 32;

const TOKEN_FIELDS = ['promptTokens', 'completionTokens', 'totalTokens', 'costUsd'] as const;
const START_FIELDS = ['sessionId', 'cwd', 'provider', 'model', 'apiModel'] as const;

function addTokens(into: Tokens, event: Obj): void {
  for (const field of TOKEN_FIELDS) {
    const value = num(event[field]);
    if (value !== undefined) into[field] = (into[field] ?? 0) + value;
  }
}

function startOf(event: Obj): RunStart {
  const start: RunStart = {};
  for (const field of START_FIELDS) {
    const value = str(event[field]);
    if (value !== undefined) start[field] = value;
  }
  return start;
}

/** What the model says before its tool calls, not shown yet: shown once a call, a result, a notice or the end comes. */
type Head = { index: number; continued: boolean; reasoning: ShownText; text: ShownText };

export type RunTranscript = {
  readonly runId: string | undefined;
  /** Set once run_end has come: the run has handed on everything. */
  readonly ended: boolean;
  event(type: string, event: Obj, lineNo: number | undefined, emit: Emit<Piece>): void;
  /** The run stops without its run_end: what it holds, then its outcome (unknown) and why. */
  close(emit: Emit<Piece>, missingEnd: NonNullable<RunSummary['missingEnd']>): void;
};

export type RunOptions = {
  index: number;
  runId: string | undefined;
  prompt: string | undefined;
  redact: Redactor;
  /** A line that cannot be shown, and why (redacted by the caller). */
  skip(lineNo: number | undefined, reason: string): void;
};

export function createRunTranscript({ index, runId, prompt, redact, skip }: RunOptions): RunTranscript {
  const turns = createTurnCounter();
  const tokens: Tokens = {};
  let toolCalls = 0;
  let opened = false;
  let ended = false;
  /** The run_start, held until the next event tells whether the run is a conversation (a turn_start comes next). */
  let starting: RunStart | undefined;
  /** A conversation's user turns so far, how many were interrupted, and whether the model said or did anything in the one going on. */
  let conversation = false;
  let userTurns = 0;
  let interrupted = 0;
  let worked = false;
  let head: Head | undefined;
  /** The text of the last turn shown, to tell a final that repeats it. */
  let lastShown: { index: number; text: string } | undefined;
  const waiting: { id: string; call: ToolCall }[] = [];

  const open = (emit: Emit<Piece>, asConversation = false) => {
    opened = true;
    conversation = asConversation;
    const said = prompt !== undefined && !conversation ? { prompt } : {};
    emit({ kind: 'run', index, ...(runId !== undefined ? { runId: redact.text(runId) } : {}), ...said, ...(starting ? { start: redact.value(starting) } : {}), ...(conversation ? { conversation } : {}) });
  };
  const newHead = (turn: number, continued: boolean): Head => ({ index: turn, continued, reasoning: redact.pieces(), text: redact.pieces() });

  /** The head as a piece (`tools`: calls follow it); true when its text is `answer`, the run's final answer. */
  const showHead = (emit: Emit<Piece>, tools: boolean, answer?: string): boolean => {
    if (!head) return false;
    const { index: turn, continued } = head;
    const reasoning = head.reasoning.take();
    const text = head.text.take();
    const final = answer !== undefined && answer !== '' && text === answer;
    head = undefined;
    lastShown = { index: turn, text };
    emit({ kind: 'turn', turn: { index: turn, continued, ...(reasoning ? { reasoning } : {}), text, tools, final } });
    return final;
  };
  const showAnswered = (emit: Emit<Piece>) => {
    while (waiting.length > 0 && (waiting[0]!.call.result || waiting.length > MAX_WAITING_CALLS)) emit({ kind: 'tool', call: waiting.shift()!.call });
  };
  const showWaiting = (emit: Emit<Piece>) => {
    for (const { call } of waiting.splice(0)) emit({ kind: 'tool', call });
  };
  const endTurn = (emit: Emit<Piece>) => {
    showHead(emit, false);
    showWaiting(emit);
  };
  const summary = (outcome?: RunSummary['outcome']): RunSummary => ({
    ...(outcome ? { outcome } : {}),
    tokens,
    turns: turns.turns,
    toolCalls,
    ...(conversation ? { userTurns, interruptedTurns: interrupted } : {}),
  });

  const toolCall = (event: Obj, emit: Emit<Piece>) => {
    showHead(emit, true);
    const id = str(event.id) ?? '';
    const call: ToolCall = { id: redact.id(id), name: redact.text(str(event.name) ?? '(unnamed tool)') };
    if (event.args !== undefined && event.args !== null) call.args = redact.value(event.args as NonNullable<ToolCall['args']>);
    const sideEffect = str(event.sideEffect);
    if (sideEffect !== undefined) call.sideEffect = redact.text(sideEffect);
    toolCalls += 1;
    waiting.push({ id, call });
    showAnswered(emit);
  };
  const toolResult = (event: Obj, emit: Emit<Piece>) => {
    showHead(emit, false);
    const id = str(event.id) ?? '';
    const result: ToolResult = { status: event.status === 'error' ? 'error' : 'ok', output: redact.text(str(event.output) ?? ''), truncated: event.truncated === true };
    const answered = waiting.find((entry) => entry.id === id && !entry.call.result);
    if (answered) answered.call.result = result;
    else emit({ kind: 'orphan_result', id: redact.id(id), result });
    showAnswered(emit);
  };
  const permission = (type: string, event: Obj, lineNo: number | undefined) => {
    const id = str(event.id) ?? '';
    const waits = waiting.find((entry) => entry.id === id);
    if (!waits) return skip(lineNo, `${type} for no tool_call ${JSON.stringify(id)}`);
    const noted = notePermission(waits.call.permissions, event, redact);
    if (noted) waits.call.permissions = noted;
    else skip(lineNo, `${type}: more permission events for one tool_call than a transcript shows`);
  };
  /** A conversation's user turn begins (what the user said) or ends (how, when not answered). */
  const userTurn = (type: string, event: Obj, emit: Emit<Piece>) => {
    endTurn(emit);
    const turn = num(event.turn) ?? userTurns + 1;
    if (type === 'turn_start') {
      conversation = true;
      userTurns += 1;
      worked = false;
      return emit({ kind: 'user_turn', turn, content: redact.text(str(event.content) ?? '') });
    }
    const status = redact.text(str(event.status) ?? 'unknown');
    if (status === 'interrupted') interrupted += 1;
    emit({ kind: 'turn_end', turn, status, worked });
  };
  /** The final answer: the turn being said, when its text is the answer; else a piece of its own. */
  const final = (event: Obj, emit: Emit<Piece>) => {
    const text = redact.text(str(event.text) ?? '');
    if (showHead(emit, false, text)) return;
    const repeats = text !== '' && lastShown?.text === text ? { sameAs: lastShown.index } : {};
    emit({ kind: 'final', text, ...repeats });
  };
  /** Reasoning and text join the turn being said (a turn already shown goes on in a head of its own); usage counts. */
  const said = (type: string, event: Obj) => {
    if (type === 'usage') return addTokens(tokens, event);
    head ??= newHead(turns.turns, true);
    head[type === 'text' ? 'text' : 'reasoning'].push(str(event.delta) ?? '');
  };

  return {
    runId,
    get ended() {
      return ended;
    },
    event(type, event, lineNo, emit) {
      if (!opened && type === 'run_start' && starting === undefined) return void (starting = startOf(event));
      // heartbeats (a client slow to send the first message) show nothing: the next event tells
      if (!opened && type === 'heartbeat') return;
      if (!opened) open(emit, type === 'turn_start');
      if (type === 'run_start') emit({ kind: 'start', start: redact.value(startOf(event)) });
      if (MODEL_WORK.has(type)) worked = true;
      if (turns.starts(event)) {
        endTurn(emit);
        // a final that starts a turn is shown as the final answer, with no turn of its own
        if (type !== 'final') head = newHead(turns.turns, false);
      }
      switch (type) {
        case 'reasoning':
        case 'text':
        case 'usage':
          return said(type, event);
        case 'tool_call':
          return toolCall(event, emit);
        case 'tool_result':
          return toolResult(event, emit);
        case 'permission_request':
        case 'permission_decision':
          return permission(type, event, lineNo);
        case 'turn_start':
        case 'turn_end':
          return userTurn(type, event, emit);
        case 'final':
          return final(event, emit);
        case 'warning':
          showHead(emit, false);
          return emit({ kind: 'warning', message: redact.text(str(event.message) ?? '') });
        case 'error':
          showHead(emit, false);
          return emit({ kind: 'error', code: redact.text(str(event.code) ?? 'error'), message: redact.text(str(event.message) ?? ''), recoverable: event.recoverable === true });
        case 'run_end':
          endTurn(emit);
          ended = true;
          return emit({ kind: 'run_end', summary: summary({ status: redact.text(str(event.status) ?? 'unknown'), exitCode: num(event.exitCode) ?? -1 }) });
      }
    },
    close(emit, missingEnd) {
      if (!opened) open(emit);
      endTurn(emit);
      emit({ kind: 'run_end', summary: { ...summary(), missingEnd } });
    },
  };
}
