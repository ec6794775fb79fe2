import { CancelledError, type CancelSignal } from '../errors.js';
import { coverHungUpTerminals, exitProcess } from './exit.js';

/** The signals that cancel a run (SIGPIPE is internal: it is how a lost stdout cancels). */
export const CANCEL_SIGNALS: readonly CancelSignal[] = ['SIGHUP', 'SIGINT', 'SIGTERM'];

/** A caught signal not taken within this long (setup stuck on a FIFO, say) ends the process as the signal would. */
const UNTAKEN_EXIT_MS = 3000;
/** After a second one: the run still gets this long to be set up and write its error and run_end. */
const HURRIED_EXIT_MS = 500;
const exitCode = (signal: CancelSignal) => new CancelledError(signal).exitCode;

const early: CancelSignal[] = [];
let untaken: NodeJS.Timeout | undefined;
let setup = new AbortController();

function keep(signal: CancelSignal): void {
  early.push(signal);
  // A second one hurries the end, as during a run: but the run, set up by then, still writes its run_end.
  if (early.length > 2) return;
  clearTimeout(untaken);
  setup.abort(new CancelledError(early[0]!));
  const code = exitCode(early[0]!);
  untaken = setTimeout(() => exitProcess(code), early.length > 1 ? HURRIED_EXIT_MS : UNTAKEN_EXIT_MS).unref();
}

/**
 * Aborted, with the CancelledError of the first signal kept, while the run is set up: a read that may wait for
 * ever (--file or --script a FIFO nobody writes, a prompt on a stdin that never ends) stops there, and the run
 * ends cancelled at once, with error + run_end, instead of after UNTAKEN_EXIT_MS without them.
 */
export function setupSignal(): AbortSignal {
  return setup.signal;
}

const keepers = new Map(CANCEL_SIGNALS.map((signal) => [signal, () => keep(signal)]));

/**
 * Called by bin/zero before the program loads: a signal that arrives while the
 * modules load and the run is set up is kept for it (see takeEarlySignals)
 * instead of killing the process with no run_end. Never called on import, so an
 * embedding program keeps its own signal handling.
 */
export function catchEarlySignals(): void {
  for (const [signal, keeper] of keepers) process.on(signal, keeper);
  process.once('exit', coverHungUpTerminals);
}

/** The signals caught since catchEarlySignals, in order; from now on the caller handles them. */
export function takeEarlySignals(): CancelSignal[] {
  for (const [signal, keeper] of keepers) process.off(signal, keeper);
  clearTimeout(untaken);
  setup = new AbortController();
  return early.splice(0);
}
