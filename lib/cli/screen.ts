import { Writable } from 'node:stream';
import type { ProgressWriter } from '../output/serializer.js';
import { palette } from '../output/style.js';
import { WAITING_FOR_MODEL } from '../output/text.js';
import type { CliIO } from './io.js';
import { silenceable } from './process.js';
import type { OutputFormat } from '../output/serializer.js';

// The text format on a screen that stdout and stderr share (a terminal, or `2>&1`). The answer reaches stdout
// through the chain's streams while progress is written at once, so a progress line could overtake the text
// before it: here it waits until stdout has taken that text. And while nothing happens for a second, a
// terminal shows a spinner saying what the run waits for, erased before anything else is written.
// With stdout piped and stderr a terminal (`| tee log`), the answer may reach the same screen through another
// process, which shows it a moment after stdout took it: progress that follows answer text then waits a moment
// more (PIPE_SETTLE_MS), and the text after it waits for it. Nothing tells when the reader has shown it.

/** Silence before the spinner shows. */
export const SPINNER_DELAY_MS = 1000;
const FRAME_MS = 100;
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const ERASE_LINE = '\r\x1b[K';
/** How long after stdout took answer text a progress line waits, when a pipe's reader may show the text on stderr's screen. */
export const PIPE_SETTLE_MS = 100;

/** spinner and sessionHint: what a live run (zero exec) adds on a terminal. */
export type ScreenOptions = { spinner?: boolean; sessionHint?: boolean };

export type Screen = {
  /** The CliIO to deliver through: its stdout counts what was written, and its exit erases the spinner first. */
  io: CliIO;
  /** Where the text format writes progress. */
  progress: ProgressWriter & { silence(): void };
};

export function createScreen(io: CliIO, options: ScreenOptions = {}): Screen {
  // TERM=dumb: a terminal that may not know \r or ESC[K; its frames would pile up
  const spinning = options.spinner === true && io.stderr.isTTY === true && io.env.TERM !== 'dumb';
  // Unless stdout is known to show elsewhere, the answer's open line may be the one the cursor is on (a shared
  // terminal, `| tee`): the spinner then never starts, for its \r\e[K would erase text stderr did not write.
  const place = io.stdoutPlace ?? ((io.stdout as { isTTY?: boolean }).isTTY ? 'shared' : 'unknown');
  const style = palette(Boolean(io.stderr.color));
  const held: { after: number; text: string }[] = [];
  let written = 0;
  const settleMs = place === 'unknown' && io.stderr.isTTY === true ? PIPE_SETTLE_MS : 0;
  let tookAt = 0;
  let settling: NodeJS.Timeout | undefined;
  /** A chunk of the answer that belongs after progress still held: written once that is. */
  let waitingChunk: (() => void) | undefined;
  let silent = false;
  /** The cursor is at the start of a line: the last thing either stream wrote to the terminal ended one. */
  const lineOpen = { stdout: false, stderr: false };
  // run_start waits for the model's first event: until then, the model is what the run waits for
  let waitingFor = WAITING_FOR_MODEL;
  let shown = false;
  let timer: NodeJS.Timeout | undefined;
  let frame = 0;

  const erase = () => {
    if (shown) io.stderr.write(ERASE_LINE);
    shown = false;
  };
  const draw = () => {
    timer = undefined;
    if (silent || !waitingFor || lineOpen.stderr || (place !== 'elsewhere' && lineOpen.stdout)) return;
    io.stderr.write(`${ERASE_LINE}${style.dim(`${FRAMES[frame++ % FRAMES.length]} ${waitingFor}…`)}`);
    shown = true;
    timer = setTimeout(draw, FRAME_MS).unref();
  };
  /** Something was written: the spinner goes, and comes back after a second of silence. */
  const activity = () => {
    if (!spinning) return;
    clearTimeout(timer);
    timer = setTimeout(draw, SPINNER_DELAY_MS).unref();
  };
  const writeProgress = (text: string) => {
    if (silent) return;
    erase();
    io.stderr.write(text);
    lineOpen.stderr = !text.endsWith('\n');
    activity();
  };
  /** Progress held back whose answer text stdout has taken: it comes before any later text. */
  const due = () => held.length > 0 && held[0]!.after <= written;
  const release = () => {
    if (settling) return;
    const wait = tookAt + settleMs - Date.now();
    if (due() && wait > 0) {
      settling = setTimeout(() => ((settling = undefined), release()), wait);
      return;
    }
    while (due()) writeProgress(held.shift()!.text);
    const chunk = waitingChunk;
    waitingChunk = undefined;
    chunk?.();
  };

  const stdout = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      const send = () => {
        erase();
        io.stdout.write(chunk, (error) => {
          if (!error) {
            written += chunk.length;
            if (chunk.length > 0) [lineOpen.stdout, tookAt] = [chunk[chunk.length - 1] !== 0x0a, Date.now()];
            release();
            activity();
          }
          callback(error ?? undefined);
        });
      };
      if (due()) waitingChunk = send;
      else send();
    },
  });
  (stdout as unknown as { isTTY?: boolean }).isTTY = (io.stdout as { isTTY?: boolean }).isTTY;

  const progress = {
    isTTY: io.stderr.isTTY,
    color: io.stderr.color,
    get columns() {
      return io.stderr.columns;
    },
    sessionHint: options.sessionHint === true && io.stderr.isTTY === true,
    write: (text: string) => writeProgress(text),
    writeAfter(text: string, stdoutBytes: number) {
      if (held.length === 0 && stdoutBytes <= written && Date.now() >= tookAt + settleMs) return writeProgress(text);
      held.push({ after: stdoutBytes, text });
      release();
    },
    busy(what: string) {
      waitingFor = what;
      activity();
    },
    silence() {
      silent = true;
      held.length = 0;
      clearTimeout(timer);
      clearTimeout(settling);
      settling = undefined;
      erase();
      release();
    },
  };
  activity();
  const exit = (code: number) => {
    clearTimeout(timer);
    clearTimeout(settling);
    held.splice(0).forEach(({ text }) => writeProgress(text));
    clearTimeout(timer);
    erase();
    io.exit(code);
  };
  return { io: { ...io, stdout, exit }, progress };
}

/** The text format shares the screen (and a live run spins); the JSON formats write stdout as it comes, progress-free. */
export function screenFor(io: CliIO, format: OutputFormat, options: ScreenOptions = {}): Screen {
  return format === 'text' ? createScreen(io, options) : { io, progress: silenceable(io.stderr) };
}
