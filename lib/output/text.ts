import type { OutputEvent } from '../protocol/types.js';
import { cut, describeCall, describeResult } from './progress.js';
import { palette } from './style.js';
import { visible } from './visible.js';

/** `busy`: what the run waits for after this event (a spinner may say so). */
export type Rendered = { stdout?: string; stderr?: string; busy?: string };

/** How wide a progress line may be when stderr is no terminal (no width to fit). */
export const PIPED_PROGRESS_COLUMNS = 200;

export type TextRendererOptions = {
  /** Show the model's reasoning on stderr (for a terminal): `dim` styled, `plain` without escape codes (NO_COLOR). */
  reasoning?: 'dim' | 'plain';
  /** Progress lines in colour (stderr is a terminal, or FORCE_COLOR). */
  color?: boolean;
  /** The terminal's width: a tool's progress line is cut to fit it. */
  columns?: number;
  /** At run_end, the session the run was recorded in and how to continue it (zero exec). */
  sessionHint?: boolean;
};

export const WAITING_FOR_MODEL = 'waiting for the model';

/**
 * The `text` format (docs/protocol.md §5): the assistant's text on stdout, ending with a
 * newline, and one progress line per step for stderr. Text of a later model turn starts
 * on a new line, and so does every progress line: an answer's open line is ended first,
 * so that on a terminal (or with `2>&1`) a progress line never starts mid-sentence.
 * Reasoning is shown only when asked (stderr is a terminal), as lines of its own. Everything shown is text for a
 * person: control characters come out visibly escaped (lib/output/visible.ts), on stdout too, terminal or not.
 */
export function createTextRenderer(options: TextRendererOptions = {}) {
  const style = palette(Boolean(options.color));
  const dimReasoning = palette(options.reasoning === 'dim').dim;
  // A terminal that reports no width (0) is treated as a pipe; the last column stays free, as some terminals wrap there.
  const width = options.columns ? Math.max(20, options.columns - 1) : PIPED_PROGRESS_COLUMNS;
  const toolNames = new Map<string, string>();
  let wroteText = false;
  let atLineStart = true;
  let sessionId: string | undefined;
  /** Reasoning shown on stderr whose line is still open. */
  let reasoningOpen = false;

  const answerPairs = surrogatePairs();
  const reasoningPairs = surrogatePairs();

  function text(delta: string): string {
    wroteText = true;
    atLineStart = delta.endsWith('\n');
    return visible(answerPairs.push(delta));
  }

  /** The answer's open line, ended before something else is shown (its own newline, due anyway). */
  function endLine(): string | undefined {
    const rest = visible(answerPairs.flush());
    if (!wroteText || atLineStart) return rest || undefined;
    atLineStart = true;
    return `${rest}\n`;
  }

  const progress = (stderr: string, busy?: string): Rendered => ({ stdout: endLine(), stderr, busy });
  /** A tag and what it says, cut to the width; the tag coloured. */
  const line = (tag: string, color: (text: string) => string, what: string) => `${color(tag)} ${cut(visible(what), width - tag.length - 1)}\n`.replace(/ \n$/, '\n');

  function reasoning(delta: string): Rendered {
    if (!options.reasoning) return {};
    const stdout = endLine();
    reasoningOpen = !delta.endsWith('\n');
    return { stdout, stderr: dimReasoning(visible(reasoningPairs.push(delta))) };
  }

  function runEnd(): Rendered {
    const stdout = endLine();
    if (!options.sessionHint || !sessionId) return { stdout };
    const id = visible(sessionId);
    return { stdout, stderr: `${style.dim(`[zero] session ${id}; continue it with: zero exec --resume ${id} "<next prompt>"`)}\n` };
  }

  const render = (event: OutputEvent): Rendered => {
    switch (event.type) {
      case 'run_start':
        sessionId = event.sessionId;
        return { busy: WAITING_FOR_MODEL };
      case 'reasoning':
        return reasoning(event.delta);
      case 'text':
        return { stdout: text(event.delta) };
      case 'tool_call': {
        toolNames.set(event.id, event.name);
        // the answer's open line ends before the progress line: text after the call starts on a line of its own
        return progress(line('[tool]', style.cyan, describeCall(event)), `running ${event.name}`);
      }
      case 'tool_result': {
        const { ok, summary } = describeResult(event, event.name ?? toolNames.get(event.id));
        toolNames.delete(event.id);
        return progress(ok ? line('[ok]', style.green, summary) : line('[error]', style.red, summary), WAITING_FOR_MODEL);
      }
      case 'warning':
        return progress(`${style.yellow('[zero] WARNING:')} ${visible(event.message)}\n`);
      case 'error':
        return progress(`${style.red('[zero]')} ${visible(event.message)}\n`);
      case 'final':
        return { stdout: endLine() };
      case 'run_end':
        return runEnd();
      default:
        return {};
    }
  };

  return (event: OutputEvent): Rendered => {
    if (!reasoningOpen || event.type === 'reasoning') return render(event);
    reasoningOpen = false;
    const rendered = render(event);
    const kept = reasoningPairs.flush();
    return { ...rendered, stderr: `${kept ? dimReasoning(visible(kept)) : ''}\n${rendered.stderr ?? ''}` };
  };
}

/**
 * A text in deltas, written as each comes: a delta that ends in the first half of a surrogate pair (an emoji cut
 * between two deltas) keeps it for the next, which begins with the other half. Written alone, each half would be
 * encoded as U+FFFD.
 */
function surrogatePairs() {
  let high = '';
  return {
    push(delta: string): string {
      const text = high + delta;
      const last = text.charCodeAt(text.length - 1);
      high = last >= 0xd800 && last <= 0xdbff ? text.slice(-1) : '';
      return high ? text.slice(0, -1) : text;
    },
    /** What is kept, when the text is over (a half never followed by its other: U+FFFD, as it is). */
    flush(): string {
      const kept = high;
      high = '';
      return kept;
    },
  };
}
