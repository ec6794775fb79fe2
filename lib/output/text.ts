import type { OutputEvent } from '../protocol/types.js';

export type Rendered = { stdout?: string; stderr?: string };

const RESULT_PREVIEW_CHARS = 200;

/** At most `max` characters on one line, never cutting a character in half. */
function oneLine(text: string, max: number): string {
  const collapsed = text.slice(0, max * 4).replace(/\s+/g, ' ').trim();
  return Array.from(collapsed).slice(0, max).join('');
}

/**
 * The `text` format (docs/protocol.md §5): the assistant's text on stdout, ending with a
 * newline, and short progress lines for stderr. Text of a later model turn starts
 * on a new line, so a tool round trip does not glue two sentences together.
 */
export function createTextRenderer() {
  let wroteText = false;
  let atLineStart = true;
  let turnBreak = false;

  function text(delta: string): string {
    const out = turnBreak && !atLineStart ? `\n${delta}` : delta;
    turnBreak = false;
    wroteText = true;
    atLineStart = delta.endsWith('\n');
    return out;
  }

  return (event: OutputEvent): Rendered => {
    switch (event.type) {
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
}
