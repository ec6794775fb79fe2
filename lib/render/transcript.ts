import type { LogItem } from '../logs/framing.js';
import type { LogPlaces } from '../logs/places.js';
import { isStoredPrompt } from '../logs/prompts.js';
import type { ToolCallEvent } from '../protocol/types.js';
import { isJsonObject } from '../protocol/json-object.js';
import type { RedactOptions } from '../redaction/index.js';
import { applyStep, type Emit, type Step } from '../streams.js';
import type { PermissionNote } from './permissions.js';
import { createRunTranscript, EVENT_TYPES, str, type RunTranscript } from './run.js';
import { createRedactor } from './shown.js';

/**
 * The transcript of recorded runs (docs/protocol.md §3), made as the log is read: a step that turns LogItems
 * into pieces (a run's heading, a turn's text, a tool call with its result, a notice, a run's outcome), each
 * handed on as soon as it is whole and redacted, for the Markdown and HTML renderers to write as they come.
 * It holds the run going on (see run.ts), never the runs before it.
 */

export type ToolResult = { status: 'ok' | 'error'; output: string; truncated: boolean };
export type { PermissionNote };
/** `permissions`: what was asked of the client and decided, or refused, for this call (lib/render/permissions.ts). */
export type ToolCall = { id: string; name: string; args?: ToolCallEvent['args']; sideEffect?: string; permissions?: PermissionNote[]; result?: ToolResult };
export type Tokens = { promptTokens?: number; completionTokens?: number; totalTokens?: number; costUsd?: number };
export type RunStart = { sessionId?: string; cwd?: string; provider?: string; model?: string; apiModel?: string };

/**
 * What a model turn says before its tool calls (lib/logs/turns.ts): its reasoning (version 2) and its text, deltas
 * joined. `final`: the text is the run's final answer. `tools`: its calls follow. `continued`: more of a turn
 * already shown (text after a notice).
 */
export type TurnHead = { index: number; reasoning?: string; text: string; final: boolean; tools: boolean; continued: boolean };

/**
 * What only a run's end knows. `turns`: model turns. `userTurns`, `interruptedTurns`: a conversation's user turns.
 * `missingEnd`: the run has no run_end, and why it stops.
 */
export type RunSummary = { outcome?: { status: string; exitCode: number }; tokens: Tokens; turns: number; toolCalls: number; userTurns?: number; interruptedTurns?: number; missingEnd?: 'log' | 'next run' };

/** A line of the log that could not be shown (not JSON, not an event): its line, in its file when the log is several. */
export type Skipped = { lineNo?: number; file?: string; reason: string };

export type Piece =
  /**
   * A run begins: its prompt (from a session file's prompt lines) and its run_start's fields. `conversation`: its
   * user turns follow (--multi-turn), each saying what the user said, and no prompt is shown apart.
   */
  | { kind: 'run'; index: number; runId?: string; prompt?: string; start?: RunStart; conversation?: boolean }
  /** A run_start that is not the run's first event. */
  | { kind: 'start'; start: RunStart }
  /** A conversation's user turn begins: its number and what the user said. */
  | { kind: 'user_turn'; turn: number; content: string }
  /** A conversation's user turn ended (`success`, `interrupted`, `incomplete`); `worked`: the model said or did something in it. */
  | { kind: 'turn_end'; turn: number; status: string; worked: boolean }
  | { kind: 'turn'; turn: TurnHead }
  | { kind: 'tool'; call: ToolCall }
  | { kind: 'warning'; message: string }
  | { kind: 'error'; code: string; message: string; recoverable: boolean }
  /** A tool_result whose tool_call is not in the log. */
  | { kind: 'orphan_result'; id: string; result: ToolResult }
  /** The final answer, when no turn showed it; `sameAs`: it is the text of that turn, shown above. */
  | { kind: 'final'; text: string; sameAs?: number }
  | { kind: 'run_end'; summary: RunSummary }
  /** The log is over: how many runs it had, and its first MAX_SKIPPED skipped lines (`more`: how many others). */
  | { kind: 'log_end'; runs: number; skipped: Skipped[]; more: number };

/** Skipped lines listed at the end of a transcript; the others are counted. */
export const MAX_SKIPPED = 100;

/**
 * LogItems → transcript pieces. A session file's prompt lines give the prompt of the run that follows them. A run
 * is the events of one runId in a row: an event of another runId ends it (an event without one belongs to the run
 * going on), and so does its run_end.
 */
export function createTranscript(options: { redaction?: RedactOptions; places?: LogPlaces } = {}): Step<LogItem, Piece> {
  const redact = createRedactor(options.redaction);
  let run: RunTranscript | undefined;
  let runs = 0;
  const prompt = redact.pieces();
  let prompted = false;
  const skipped: Skipped[] = [];
  let more = 0;

  const skip = (lineNo: number | undefined, reason: string) => {
    if (skipped.length >= MAX_SKIPPED) return void (more += 1);
    const shown = redact.text(reason);
    if (lineNo === undefined) return void skipped.push({ reason: shown });
    const { file, line } = options.places?.of(lineNo) ?? { line: lineNo };
    skipped.push(file === undefined ? { lineNo: line, reason: shown } : { lineNo: line, file: redact.text(file), reason: shown });
  };
  const addPrompt = (value: Record<string, unknown>) => {
    const content = value.type === 'prompt' || value.role === 'user' ? str(value.content)?.trim() : undefined;
    if (!content) return;
    // prompts joined like the combine stage's
    prompt.push(prompted ? `\n\n${content}` : content);
    prompted = true;
  };
  const open = (runId: string | undefined): RunTranscript => {
    const taken = prompted ? prompt.take() : undefined;
    prompted = false;
    runs += 1;
    return createRunTranscript({ index: runs, runId, prompt: taken, redact, skip });
  };
  const event = (value: Record<string, unknown>, lineNo: number | undefined, emit: Emit<Piece>) => {
    const type = str(value.type);
    if (type === undefined) return skip(lineNo, 'no event type');
    if (!EVENT_TYPES.has(type)) return skip(lineNo, `unknown event type "${type}"`);
    const runId = str(value.runId);
    if (run && runId !== undefined && runId !== run.runId) {
      run.close(emit, 'next run');
      run = undefined;
    }
    run ??= open(runId);
    run.event(type, value, lineNo, emit);
    if (run.ended) run = undefined;
  };

  return {
    write(item, emit) {
      if ('problem' in item) return skip(item.lineNo, item.problem);
      if (!isJsonObject(item.value)) return skip(item.lineNo, 'not a JSON object');
      if (isStoredPrompt(item.value)) return addPrompt(item.value);
      event(item.value, item.lineNo, emit);
    },
    end(emit) {
      run?.close(emit, 'log');
      run = undefined;
      // a prompt with no run after it (a session whose run never started): shown on its own
      if (prompted) open(undefined).close(emit, 'log');
      emit({ kind: 'log_end', runs, skipped: skipped.splice(0), more });
    },
  };
}

/** The transcript of a whole log's values (objects as in docs/protocol.md §3, session-file prompt lines included). */
export function transcriptOf(values: Iterable<unknown>, redaction?: RedactOptions): Piece[] {
  const items = Array.from(values, (value, index): LogItem => ({ lineNo: index + 1, value }));
  return applyStep(createTranscript({ redaction }), items);
}
