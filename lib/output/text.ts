import type { OutputEvent } from '../protocol/types.js';

export type Rendered = { stdout?: string; stderr?: string };

const RESULT_PREVIEW_CHARS = 200;

/** At most `max` characters on one line, never cutting a character in half. */
function oneLine(text: string, max: number): string {
  const collapsed = text.slice(0, max * 4).replace(/\s+/g, ' ').trim();
  return Array.from(collapsed).slice(0, max).join('');
}

export type TextRendererOptions = {
  /** Show the model's reasoning on stderr (for a terminal): `dim` styled, `plain` without escape codes (NO_COLOR). */
  reasoning?: 'dim' | 'plain';
};

const DIM = '\x1b[2m';
const NORMAL = '\x1b[22m';

/**
 * The `text` format (docs/protocol.md §5): the assistant's text on stdout, ending with a
 * newline, and short progress lines for stderr. Text of a later model turn starts
 * on a new line, so a tool round trip does not glue two sentences together.
 * Reasoning is shown only when asked (stderr is a terminal), as lines of its own.
 */
export function createTextRenderer(options: TextRendererOptions = {}) {
  let wroteText = false;
  let atLineStart = true;
  let turnBreak = false;
  /** Reasoning shown on stderr whose line is still open. */
  let reasoningOpen = false;

  function text(delta: string): string {
    const out = turnBreak && !atLineStart ? `\n${delta}` : delta;
    turnBreak = false;
    wroteText = true;
    atLineStart = delta.endsWith('\n');
    return out;
  }

  /** Reasoning starts on a line of its own: an answer's open line is ended first (its own newline, due anyway). */
  function reasoning(delta: string): Rendered {
    if (!options.reasoning) return {};
    const stdout = wroteText && !atLineStart ? '\n' : undefined;
    if (stdout) [atLineStart, turnBreak] = [true, false];
    reasoningOpen = !delta.endsWith('\n');
    return { stdout, stderr: options.reasoning === 'dim' ? `${DIM}${delta}${NORMAL}` : delta };
  }

  const render = (event: OutputEvent): Rendered => {
    switch (event.type) {
      case 'reasoning':
        return reasoning(event.delta);
      case 'text':
        return { stdout: text(event.delta) };
      case 'tool_call':
        turnBreak = wroteText;
        return { stderr: `[tool] ${event.name}\n` };
      case 'tool_result':
        return { stderr: `${['[result]', oneLine(event.output, RESULT_PREVIEW_CHARS)].filter(Boolean).join(' ')}\n` };
      case 'warning':
        return { stderr: `[zero] WARNING: ${event.message}\n` };
      case 'error':
        return { stderr: `[zero] ${event.message}\n` };
      case 'final':
      case 'run_end':
        if (wroteText && !atLineStart) {
          atLineStart = true;
          return { stdout: '\n' };
        }
        return {};
      default:
        return {};
    }
  };

  return (event: OutputEvent): Rendered => {
    if (!reasoningOpen || event.type === 'reasoning') return render(event);
    reasoningOpen = false;
    const rendered = render(event);
    return { ...rendered, stderr: `\n${rendered.stderr ?? ''}` };
  };
}
