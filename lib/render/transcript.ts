import { redactId, redactOutbound, redactValue, type RedactOptions } from '../redaction/index.js';
import { isJsonObject } from '../protocol/validate.js';

/**
 * The transcript of recorded runs: a plain model built from output events
 * (docs/protocol.md §3), which the markdown and HTML renderers turn into something
 * people would rather read than JSONL.
 */

export type ToolResult = { status: 'ok' | 'error'; output: string; truncated: boolean };
/** A version 2 permission_request: why the call was refused, and the sandbox's block code when the sandbox refused it. */
export type PermissionNote = { reason: string; code?: string };
export type ToolCall = { id: string; name: string; args?: Record<string, unknown>; sideEffect?: string; permission?: PermissionNote; result?: ToolResult };
export type Tokens = { promptTokens?: number; completionTokens?: number; totalTokens?: number; costUsd?: number };

/** One model turn: its reasoning (version 2) and what it said (deltas concatenated), then the tools it asked for and their results. */
export type Turn = { index: number; reasoning?: string; text: string; tools: ToolCall[]; usage?: Tokens };

export type Entry =
  | { kind: 'turn'; turn: Turn }
  | { kind: 'warning'; message: string }
  | { kind: 'error'; code: string; message: string; recoverable: boolean }
  /** A tool_result whose tool_call is not in the log. */
  | { kind: 'orphan_result'; id: string; result: ToolResult };

export type RunSection = {
  runId?: string;
  prompt?: string;
  start?: { sessionId?: string; cwd?: string; provider?: string; model?: string; apiModel?: string };
  entries: Entry[];
  final?: string;
  tokens: Tokens;
  outcome?: { status: string; exitCode: number };
};

/** Lines of the log that could not be shown (not JSON, not an event). */
export type Skipped = { lineNo?: number; reason: string };

export type Transcript = { runs: RunSection[]; skipped: Skipped[] };

type Obj = Record<string, unknown>;

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

const TOKEN_FIELDS = ['promptTokens', 'completionTokens', 'totalTokens', 'costUsd'] as const;

function addTokens(into: Tokens, event: Obj): void {
  for (const field of TOKEN_FIELDS) {
    const value = num(event[field]);
    if (value !== undefined) into[field] = (into[field] ?? 0) + value;
  }
}

type RunState = { section: RunSection; turn?: Turn; resultsSeen: boolean; calls: Map<string, ToolCall> };

/**
 * Builds a transcript one value at a time (so a log can stream through it).
 * A session file's `{"type":"prompt"}` lines give the prompt of the run that
 * follows them; each runId becomes one section, in order of first appearance.
 */
export class TranscriptBuilder {
  private readonly runs = new Map<string, RunState>();
  private readonly sections: RunSection[] = [];
  private readonly skipped: Skipped[] = [];
  private pendingPrompt: string[] = [];
  private anonymous?: RunState;

  /** Adds one parsed value of the log (lineNo, when known, names it in the skipped list). */
  add(value: unknown, lineNo?: number): void {
    if (!isJsonObject(value)) return this.skip(lineNo, 'not a JSON object');
    const type = str(value.type);
    if (type === 'prompt' || (type === 'message' && value.role === 'user')) {
      const content = str(value.content)?.trim();
      if (content) this.pendingPrompt.push(content);
      return;
    }
    if (type === undefined) return this.skip(lineNo, 'no event type');
    const state = this.runFor(str(value.runId));
    this.apply(state, type, value, lineNo);
  }

  /** A line that is not JSON. */
  addProblem(lineNo: number | undefined, reason: string): void {
    this.skip(lineNo, reason);
  }

  finish(): Transcript {
    if (this.pendingPrompt.length > 0) {
      // A prompt with no run after it (a session whose run never started): shown on its own.
      this.sections.push({ prompt: this.takePrompt(), entries: [], tokens: {} });
    }
    return { runs: this.sections, skipped: this.skipped };
  }

  private skip(lineNo: number | undefined, reason: string): void {
    this.skipped.push(lineNo === undefined ? { reason } : { lineNo, reason });
  }

  private takePrompt(): string | undefined {
    if (this.pendingPrompt.length === 0) return undefined;
    const prompt = this.pendingPrompt.join('\n\n');
    this.pendingPrompt = [];
    return prompt;
  }

  private runFor(runId: string | undefined): RunState {
    const known = runId === undefined ? this.anonymous : this.runs.get(runId);
    if (known) return known;
    const section: RunSection = { ...(runId === undefined ? {} : { runId }), entries: [], tokens: {} };
    const prompt = this.takePrompt();
    if (prompt !== undefined) section.prompt = prompt;
    const state: RunState = { section, resultsSeen: false, calls: new Map() };
    if (runId === undefined) this.anonymous = state;
    else this.runs.set(runId, state);
    this.sections.push(section);
    return state;
  }

  /** The current turn, or a new one when the last turn's tools have answered. */
  private turnOf(state: RunState): Turn {
    if (!state.turn || state.resultsSeen) {
      const turns = state.section.entries.filter((entry) => entry.kind === 'turn').length;
      state.turn = { index: turns + 1, text: '', tools: [] };
      state.resultsSeen = false;
      state.section.entries.push({ kind: 'turn', turn: state.turn });
    }
    return state.turn;
  }

  private apply(state: RunState, type: string, event: Obj, lineNo: number | undefined): void {
    const { section } = state;
    switch (type) {
      case 'run_start': {
        const start: RunSection['start'] = {};
        for (const field of ['sessionId', 'cwd', 'provider', 'model', 'apiModel'] as const) {
          const value = str(event[field]);
          if (value !== undefined) start[field] = value;
        }
        section.start = start;
        return;
      }
      case 'text': {
        const delta = str(event.delta) ?? '';
        this.turnOf(state).text += delta;
        return;
      }
      case 'reasoning': {
        const turn = this.turnOf(state);
        turn.reasoning = (turn.reasoning ?? '') + (str(event.delta) ?? '');
        return;
      }
      case 'permission_request': {
        const call = state.calls.get(str(event.id) ?? '');
        if (!call) return this.skip(lineNo, `permission_request for no tool_call ${JSON.stringify(str(event.id) ?? '')}`);
        const code = isJsonObject(event.block) ? str(event.block.code) : undefined;
        call.permission = { reason: str(event.reason) ?? '', ...(code !== undefined ? { code } : {}) };
        return;
      }
      // a checkpoint says what the tool call after it changes, which its result shows; zero exec never writes a decision
      case 'checkpoint':
      case 'permission_decision':
        return;
      case 'usage': {
        const turn = this.turnOf(state);
        turn.usage ??= {};
        addTokens(turn.usage, event);
        addTokens(section.tokens, event);
        return;
      }
      case 'tool_call': {
        const turn = this.turnOf(state);
        const call: ToolCall = { id: str(event.id) ?? '', name: str(event.name) ?? '(unnamed tool)' };
        if (isJsonObject(event.args)) call.args = event.args;
        const sideEffect = str(event.sideEffect);
        if (sideEffect !== undefined) call.sideEffect = sideEffect;
        turn.tools.push(call);
        state.calls.set(call.id, call);
        return;
      }
      case 'tool_result': {
        const id = str(event.id) ?? '';
        const result: ToolResult = { status: event.status === 'error' ? 'error' : 'ok', output: str(event.output) ?? '', truncated: event.truncated === true };
        const call = state.calls.get(id);
        if (call && !call.result) call.result = result;
        else section.entries.push({ kind: 'orphan_result', id, result });
        state.resultsSeen = true;
        return;
      }
      case 'final':
        section.final = str(event.text) ?? '';
        return;
      case 'warning':
        section.entries.push({ kind: 'warning', message: str(event.message) ?? '' });
        return;
      case 'error':
        section.entries.push({ kind: 'error', code: str(event.code) ?? 'error', message: str(event.message) ?? '', recoverable: event.recoverable === true });
        return;
      case 'run_end':
        section.outcome = { status: str(event.status) ?? 'unknown', exitCode: num(event.exitCode) ?? -1 };
        return;
      default:
        this.skip(lineNo, `unknown event type "${type}"`);
    }
  }
}

/** The transcript of a whole log's values (objects as in docs/protocol.md §3, session-file prompt lines included). */
export function buildTranscript(values: Iterable<unknown>): Transcript {
  const builder = new TranscriptBuilder();
  for (const value of values) builder.add(value);
  return builder.finish();
}

/**
 * The transcript with every string redacted (a hand-made log may hold secrets
 * that never passed zero's redact stage). Texts are redacted whole, after the
 * deltas are joined, so a secret split across deltas is caught too.
 */
export function redactTranscript(transcript: Transcript, options: RedactOptions = {}): Transcript {
  const text = (value: string) => redactOutbound(value, options);
  const result = (value: ToolResult): ToolResult => ({ ...value, output: text(value.output) });
  const call = (value: ToolCall): ToolCall => ({
    ...value,
    id: redactId(value.id, options),
    name: text(value.name),
    ...(value.sideEffect !== undefined ? { sideEffect: text(value.sideEffect) } : {}),
    ...(value.permission ? { permission: redactValue(value.permission, options) } : {}),
    ...(value.args !== undefined ? { args: redactValue(value.args, options) } : {}),
    ...(value.result ? { result: result(value.result) } : {}),
  });
  const entry = (value: Entry): Entry => {
    switch (value.kind) {
      case 'turn':
        return {
          kind: 'turn',
          turn: { ...value.turn, ...(value.turn.reasoning !== undefined ? { reasoning: text(value.turn.reasoning) } : {}), text: text(value.turn.text), tools: value.turn.tools.map(call) },
        };
      case 'warning':
        return { ...value, message: text(value.message) };
      case 'error':
        return { ...value, code: text(value.code), message: text(value.message) };
      case 'orphan_result':
        return { ...value, id: redactId(value.id, options), result: result(value.result) };
    }
  };
  const runs = transcript.runs.map((run): RunSection => ({
    ...run,
    ...(run.runId !== undefined ? { runId: text(run.runId) } : {}),
    ...(run.prompt !== undefined ? { prompt: text(run.prompt) } : {}),
    ...(run.final !== undefined ? { final: text(run.final) } : {}),
    ...(run.start ? { start: redactValue(run.start, options) } : {}),
    ...(run.outcome ? { outcome: { ...run.outcome, status: text(run.outcome.status) } } : {}),
    entries: run.entries.map(entry),
  }));
  return { runs, skipped: transcript.skipped.map((skip) => ({ ...skip, reason: text(skip.reason) })) };
}

/** The turn whose text is the run's final answer (the last turn with that text), so renderers need not repeat it. */
export function finalTurn(run: RunSection): Turn | undefined {
  if (run.final === undefined || run.final === '') return undefined;
  for (let i = run.entries.length - 1; i >= 0; i--) {
    const entry = run.entries[i];
    if (entry.kind === 'turn') return entry.turn.text === run.final ? entry.turn : undefined;
  }
  return undefined;
}

/** Results longer than this are folded (`<details>`). */
export const FOLD_LINES = 40;
export const FOLD_BYTES = 4096;

export function lineCount(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

export function isLong(text: string): boolean {
  return lineCount(text) > FOLD_LINES || Buffer.byteLength(text, 'utf8') > FOLD_BYTES;
}

/** "12 lines, 5.3 KB" */
export function sizeLabel(text: string): string {
  const lines = lineCount(text);
  const bytes = Buffer.byteLength(text, 'utf8');
  const size = bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
  return `${lines} ${lines === 1 ? 'line' : 'lines'}, ${size}`;
}

/** Tool arguments as readable JSON. */
export function formatArgs(args: Record<string, unknown> | undefined): string {
  return args === undefined ? '' : JSON.stringify(args, null, 2);
}

export function tokenSummary(tokens: Tokens): string | undefined {
  const parts: string[] = [];
  if (tokens.promptTokens !== undefined) parts.push(`${tokens.promptTokens} prompt`);
  if (tokens.completionTokens !== undefined) parts.push(`${tokens.completionTokens} completion`);
  if (tokens.totalTokens !== undefined) parts.push(`${tokens.totalTokens} total`);
  if (tokens.costUsd !== undefined) parts.push(`$${tokens.costUsd.toFixed(4)}`);
  return parts.length ? parts.join(' · ') : undefined;
}
