/**
 * The output half of `zero exec`'s chain, on its own: events → bytes (redact → stamp → (record) → serialize), a run's
 * events settled into exactly one run_end, and the failures reported before a run exists. lib/pipeline.ts joins it
 * to the agent; the log commands use only this, so they never load the agent (nor its schemas and tools) to start.
 */
import { PassThrough, Readable, finished, pipeline, type Duplex } from 'node:stream';
import { record } from '../transforms/record.js';
import type { OutputFormat } from '../transforms/serialize.js';
import type { ProgressWriter } from './output/serializer.js';
import { toZeroError } from './errors.js';
import { failureEvents } from './protocol/failure.js';
import { newRunId } from './protocol/ids.js';
import type { Event } from './protocol/types.js';
import type { VersionChoice } from './protocol/versions.js';
import type { SessionRecorder } from './sessions/recorder.js';
import { OUTPUT_FORMATS, serializeStep } from './output/serializer.js';
import { withHeartbeat } from './output/heartbeat.js';
import { guardStep } from './output/event-guard.js';
import { warmUpStep } from './output/warm-up.js';
import { stampStep } from './protocol/stamp.js';
import type { TextSpool } from './files/text-spool.js';
import { redactStep } from './redaction/events.js';
import { composeSteps, joinDuplex, stepStream, type Step } from './streams.js';
import { aWriter, anAbortSignal, checkOptions, oneOf, positiveNumber, REDACTION, STAMPING } from './options.js';

export type OutputChainOptions = {
  format?: OutputFormat;
  runId?: string;
  /** Credentials in use, redacted wherever they appear. */
  secrets?: string[];
  /** Where the `text` format writes progress lines. */
  stderr?: ProgressWriter;
  /** The run's session: every stamped event is stored in it. */
  recorder?: SessionRecorder;
  /** The schema version of the output (default 1), settled when the first event is written. */
  schemaVersion?: VersionChoice;
  /** Told the exit code of the run_end written, in the output's schema version. */
  onRunEnd?: (exitCode: number) => void;
  /** --permission-prompt stdio: the permission events are written in version 1 too. */
  permissionEvents?: boolean;
  /** --heartbeat: a `heartbeat` event when the next event has not come for this long (lib/output/heartbeat.ts). */
  heartbeatMs?: number;
  /** The run's cancellation: a spooled final's text, redacted as it is written, is cut there, and the run ends cancelled. */
  signal?: AbortSignal;
};

/** What outputChain (and execChain's `output`) checks of its options when it is made. */
export const OUTPUT_CHAIN_OPTIONS = {
  ...REDACTION,
  ...STAMPING,
  format: oneOf(OUTPUT_FORMATS),
  stderr: aWriter,
  heartbeatMs: positiveNumber,
  signal: anAbortSignal,
};

/** Whether stdout carries a final's text: the text format writes the answer's deltas, not its final. */
const finalOnStdout = (options: OutputChainOptions) => options.format !== 'text';

/** Reasoning is for a person too: the text format shows it (on a terminal) whatever the schema version. */
const FOR_PEOPLE: ReadonlySet<Event['type']> = new Set(['reasoning']);

/** The output chain's steps: redact and stamp (`head`), then the record stage, if any, then `serializer`. */
function outputSteps(options: OutputChainOptions): { head: Step<any, any>[]; serializer: Step<any, any> } {
  const keep = options.format === 'text' ? FOR_PEOPLE : undefined;
  // events from a caller, not only the agent's: anything else is refused at the door (a check per event)
  const head = [guardStep('outputChain', redactStep({ ...options, unread: !finalOnStdout(options) && !options.recorder, cutOn: options.signal })), stampStep({ ...options, keep })];
  return { head, serializer: serializeStep(options.format ?? 'stream-json', options.stderr ?? process.stderr) };
}

/** The same steps, for the warm-up: told of no run_end nor the run's signal, their progress lines (the text format's) going nowhere. */
function throwawaySteps(options: OutputChainOptions): Step<Event, unknown> {
  const { head, serializer } = outputSteps({ ...options, onRunEnd: undefined, signal: undefined, stderr: { write: () => true } });
  return composeSteps([...head, serializer]);
}

/**
 * events → bytes: redact → stamp → (record) → serialize, fused in one stream (the record stage, which waits for
 * the disk at run_end, stands apart). Nothing leaves, or is stored, without passing redaction. After run_start,
 * a throwaway copy of the steps is warmed up for the first delta (lib/output/warm-up.ts).
 */
export function outputChain(given?: OutputChainOptions): Duplex {
  const options = checkOptions('outputChain', given, OUTPUT_CHAIN_OPTIONS);
  const { head, serializer } = outputSteps(options);
  head.push(warmUpStep(() => throwawaySteps(options)));
  if (!options.recorder) return stepStream(composeSteps([...head, serializer]), { readableObjectMode: false });
  const first = stepStream(composeSteps(head), { writableHighWaterMark: 2, readableHighWaterMark: 2 });
  const last = stepStream(serializer, { readableObjectMode: false, writableHighWaterMark: 2 });
  // the serializer's bytes go on as they are made, not a tick later as pumpify hands them on: by then the reply's
  // end (the SDK's last chunks, the final) may have run ahead of the last delta
  return joinDuplex(first, pipeline(first, record(options.recorder, { signal: options.signal, onRunEnd: options.onRunEnd }), last, () => {}));
}

/** Called with every failure that ends a run, before it becomes an `error` event (the CLI prints it with --debug). */
export type FailureHook = (error: unknown) => void;

/**
 * A spooled final's text is redacted as its readers pull it (lib/files/text-spool.ts): the run is over once it has
 * all been made, or cancelled, its text cut short, when the signal comes first.
 */
async function finalMade(spool: TextSpool, signal: AbortSignal): Promise<void> {
  let onAbort = () => {};
  const aborted = signal.aborted ? false : new Promise<false>((resolve) => signal.addEventListener('abort', (onAbort = () => resolve(false)), { once: true }));
  const whole = await Promise.race([spool.throughMade(), aborted]).finally(() => signal.removeEventListener('abort', onAbort));
  if (whole) return;
  // not whole and not cancelled: its reader failed, and the chain reports that
  throw signal.aborted ? signal.reason : new Error('The answer could not be read back.');
}

/**
 * The events, then exactly one run_end: success when they end cleanly (with `waitFor`, a spooled final last once its
 * text is all made), error + run_end when they fail. A stream, not a generator over the agent's stream: each event
 * goes on in the same tick it is pushed (an async iterator and Readable.from around a generator cost a first word
 * 0.1 ms, in promise hops). Destroying it destroys `events`.
 */
function settled(events: Readable, onFailure?: FailureHook, waitFor?: AbortSignal): Readable {
  let last: Event | undefined;
  let ended = false;
  const out = new Readable({
    objectMode: true,
    highWaterMark: 1,
    read: () => void events.resume(),
    destroy(error, callback) {
      events.destroy();
      callback(error);
    },
  });
  const end = (tail: Event[]) => {
    if (ended || out.destroyed) return;
    ended = true;
    for (const event of tail) out.push(event);
    out.push(null);
  };
  const fail = (error: unknown) => {
    if (ended || out.destroyed) return;
    onFailure?.(error);
    end(failureEvents(toZeroError(error)));
  };
  events.on('data', (event: Event) => {
    last = event;
    if (!out.push(event)) events.pause();
  });
  // the readable side only: an agent's input may stay open after its last event
  finished(events, { writable: false }, (error) => {
    if (error) return fail(error);
    const made = waitFor && last?.type === 'final' && last.spool ? finalMade(last.spool, waitFor) : undefined;
    if (!made) return end([{ type: 'run_end', status: 'success', exitCode: 0 }]);
    made.then(() => end([{ type: 'run_end', status: 'success', exitCode: 0 }]), fail);
  });
  return out;
}

export type Outcome = { readable: Readable; exitCode: Promise<number> };

/**
 * Writes the settled events through an output chain. If a stage of that chain
 * fails, run_end never got out, so a fresh chain writes the crash instead.
 */
export function writeOut(events: Readable, output: OutputChainOptions, onFailure?: FailureHook): Outcome {
  const runId = output.runId ?? newRunId();
  const out = new PassThrough();
  let exitCode = 1;
  // the exit code of run_end as the stamp stage writes it, in the run's schema version
  const onRunEnd = (code: number) => {
    exitCode = code;
  };
  const exitCodeKnown = new Promise<number>((resolve) => out.on('end', () => resolve(exitCode)).on('close', () => resolve(exitCode)));
  // stdout reads a spooled final to its end, or the run is cancelled (a lost stdout cancels it too)
  const all = settled(events, onFailure, output.signal && finalOnStdout(output) ? output.signal : undefined);
  const source = output.heartbeatMs ? Readable.from(withHeartbeat(all, output.heartbeatMs), { objectMode: true, highWaterMark: 1 }) : all;
  const chain = outputChain({ ...output, runId, onRunEnd });
  let crashed = false;
  const crash = (error: unknown) => {
    if (crashed) return;
    crashed = true;
    onFailure?.(error);
    const crashError = toZeroError(error);
    exitCode = crashError.exitCode;
    const fallback = outputChain({ ...output, runId, onRunEnd });
    // Should the fresh chain fail too, the output still ends: a reader never waits forever.
    fallback.on('error', (fallbackError) => {
      onFailure?.(fallbackError);
      out.end();
    });
    Readable.from(failureEvents(crashError)).pipe(fallback).pipe(out);
  };
  pipeline(source, chain, (error) => error && crash(error));
  // The pipeline is done once the chain took every event; a stage may still fail after that, on the chain's readable
  // side (with a session, the stages before the record stage are a stream of their own): that failure ends the run too.
  chain.on('error', crash);
  // Not part of the pipeline above: a failing chain must not take `out` down with it.
  chain.pipe(out);
  return { readable: out, exitCode: exitCodeKnown };
}

/** A run whose events are known up front (`--list-tools`): the events, then `run_end`, through an output chain. */
export function reportEvents(events: Iterable<Event>, output: OutputChainOptions = {}): Outcome {
  return writeOut(Readable.from(events, { objectMode: true, highWaterMark: 1 }), output);
}

/** For failures before a run exists (bad flags, bad input): `error` + `run_end`, in the chosen format. */
export function reportFailure(error: unknown, output: OutputChainOptions = {}, onFailure?: FailureHook): Outcome {
  // a ZeroError first: a stream fails with a truthy reason only (undefined would read as a premature close)
  const failing = (async function* (): AsyncGenerator<Event> {
    throw toZeroError(error);
  })();
  return writeOut(Readable.from(failing), output, onFailure);
}
