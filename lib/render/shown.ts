import { redactId, redactOutbound, redactValue, type RedactOptions } from '../redaction/index.js';
import { createStreamRedactor } from '../redaction/stream.js';

/**
 * How much of one text (a turn's answer, a tool's output, a prompt) a transcript shows: what goes past it is
 * left out and counted, so a run holds a bounded amount however long its texts are. Zero's tools cut their
 * output at 64 KiB; only a log made by hand goes past this.
 */
export const SHOWN_CHARS = 256 * 1024;

const leftOut = (chars: number) => `\n… ${chars} more characters not shown`;

/** A text cut to SHOWN_CHARS, saying how much was left out. */
export function cutToShown(text: string): string {
  return text.length <= SHOWN_CHARS ? text : text.slice(0, SHOWN_CHARS) + leftOut(text.length - SHOWN_CHARS);
}

/** Text that arrives in pieces: redacted whole (a secret split across pieces is caught), kept up to SHOWN_CHARS. */
export type ShownText = {
  push(piece: string): void;
  /** All of it so far, and a fresh start. */
  take(): string;
};

/** Past SHOWN_CHARS, text goes through the stream redactor and only what is shown is kept. */
function createStreamedText(options: RedactOptions) {
  const redactor = createStreamRedactor(options);
  let kept = '';
  let dropped = 0;
  const keep = (released: string) => {
    const room = SHOWN_CHARS - kept.length;
    if (released.length <= room) kept += released;
    else {
      kept += released.slice(0, room);
      dropped += released.length - room;
    }
  };
  return {
    push: (piece: string) => keep(redactor.push(piece)),
    take(): string {
      keep(redactor.flush());
      return dropped ? kept + leftOut(dropped) : kept;
    },
  };
}

/**
 * Pieces are joined and redacted at once when taken, as long as they are short; a text that grows past
 * SHOWN_CHARS goes on through the stream redactor, whose output joined is the same (lib/redaction/stream.ts).
 */
function createShownText(options: RedactOptions): ShownText {
  let pieces: string[] = [];
  let length = 0;
  let streamed: ReturnType<typeof createStreamedText> | undefined;
  return {
    push(piece) {
      if (streamed) return streamed.push(piece);
      pieces.push(piece);
      length += piece.length;
      if (length <= SHOWN_CHARS) return;
      streamed = createStreamedText(options);
      streamed.push(pieces.join(''));
      pieces = [];
    },
    take() {
      const text = streamed ? streamed.take() : cutToShown(redactOutbound(pieces.join(''), options));
      pieces = [];
      length = 0;
      streamed = undefined;
      return text;
    },
  };
}

/**
 * Everything a transcript shows is redacted as it is made (a hand-made log may hold secrets that never passed
 * zero's redact stage), through the one outbound engine: texts whole (then cut), ids as ids, values key by key.
 */
export type Redactor = {
  text(value: string): string;
  id(value: string): string;
  value<T>(value: T): T;
  /** A text that arrives in pieces. */
  pieces(): ShownText;
};

export function createRedactor(options: RedactOptions = {}): Redactor {
  return {
    text: (value) => cutToShown(redactOutbound(value, options)),
    id: (value) => redactId(value, options),
    value: (value) => redactValue(value, options),
    pieces: () => createShownText(options),
  };
}
