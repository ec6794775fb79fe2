import { UsageError } from '../errors.js';
import { createLineValidator, schemaVersionOf } from '../protocol/schema-version.js';
import type { OutputEvent, Parsed, SchemaVersion } from '../protocol/types.js';
import { mapStep, type Step } from '../streams.js';
import type { LogItem } from './framing.js';
import type { LogPlaces } from './places.js';
import { isStoredPrompt } from './prompts.js';
import { BESIDE_TEXT, isDeltaEvent } from '../redaction/events.js';
import { redactEvent, type RedactOptions } from '../redaction/index.js';
import { createRunDeltas, type DeltaWriter } from './run-deltas.js';

export type RunPick = {
  /** The run to replay (default: the first run of the log). */
  runId?: string;
  /** The replayed run's id, once known. */
  readonly chosen: string | undefined;
  /** run_end's exit code, once it has gone by. */
  readonly exitCode: number | undefined;
  /** The replayed run's schema version (of its first line with version 1 or 2), once known. */
  readonly schemaVersion: SchemaVersion | undefined;
};

/**
 * LogItems → `{ value, lineNo }` of one run, for the validate step: the run
 * asked for, else the first one; lines of other runs, and anything after the
 * run's run_end, are skipped, and so are a session file's stored prompts (§6: they
 * belong to no run). A line that is not JSON inside the run is a usage
 * error; a run that is missing or never ends is one too, at the end. `pick`
 * tells what was found. `places`: the log is several files, and a line is named in its file.
 */
export function createRunPicker(runId?: string, places?: LogPlaces): Step<LogItem, Parsed> & { pick: RunPick } {
  const state = { chosen: runId as string | undefined, exitCode: undefined as number | undefined, schemaVersion: undefined as SchemaVersion | undefined, started: false, ended: false };
  return {
    write(item, emit) {
      if (state.ended) return;
      if ('problem' in item) throw new UsageError(`Invalid recorded event at ${places?.label(item.lineNo) ?? `line ${item.lineNo}`}: ${item.problem}.`);
      if (isStoredPrompt(item.value)) return;
      const value = item.value as Record<string, unknown> | null;
      const id = value && typeof value === 'object' && typeof value.runId === 'string' ? value.runId : undefined;
      if (state.chosen === undefined) state.chosen = id;
      if (id !== state.chosen) return;
      state.started = true;
      state.schemaVersion ??= schemaVersionOf(value);
      if (value?.type === 'run_end') {
        state.ended = true;
        // a code no process can exit with (1e400, 256, -1, 2.5: JSON and the schema allow them) is a failure, 1
        if (typeof value.exitCode === 'number') state.exitCode = Number.isInteger(value.exitCode) && value.exitCode >= 0 && value.exitCode <= 255 ? value.exitCode : 1;
      }
      emit({ value: item.value, lineNo: item.lineNo });
    },
    end() {
      if (!state.started) throw new UsageError(runId ? `No run ${runId} in the log.` : 'No recorded run in the log.');
      if (!state.ended) throw new UsageError(`The recorded run ${state.chosen} has no run_end: the log is incomplete.`);
    },
    pick: {
      runId,
      get chosen() {
        return state.chosen;
      },
      get exitCode() {
        return state.exitCode;
      },
      get schemaVersion() {
        return state.schemaVersion;
      },
    },
  };
}

/**
 * The replayed run's events against the output schema of their version (a problem is a usage error naming the
 * line); in a log of several files, the line in its file, and the file.
 */
export function createRecordedCheck(places?: LogPlaces): Step<Parsed, OutputEvent> {
  const validate = createLineValidator<OutputEvent>('output', { label: 'recorded event' });
  return mapStep((parsed: Parsed) => {
    const { file, line } = places?.of(parsed.lineNo) ?? { line: parsed.lineNo };
    if (file === undefined) return validate(parsed);
    try {
      return validate({ ...parsed, lineNo: line });
    } catch (error) {
      throw error instanceof UsageError ? new UsageError(`${error.message} (in ${file})`) : error;
    }
  });
}

type Json = Record<string, unknown>;

/** A run's deltas as events: the recorded ones as they were, or re-split in the run's own shape. */
const EVENTS: DeltaWriter<OutputEvent, Json> = {
  asCame: ({ fields, delta, original }) => original ?? { ...fields, delta },
  shaped: (template, delta) => ({ ...template, delta }),
};

/** A replayed run keeps this much of its text unlooked-at (its deltas go through the stream redactor past it). */
const DEFERRED_CHARS = 64 * 1024;

/**
 * The replayed run's events redacted again, its text and its reasoning each as one text (lib/logs/run-deltas.ts):
 * a secret split across deltas, around the other kind's or a usage, is redacted whole; a clean run's deltas go
 * out as they were recorded (`zero replay` of a clean run is the run, byte for byte).
 */
export function createReplayRedactor(options: RedactOptions = {}): Step<OutputEvent, Json> {
  const run = createRunDeltas<OutputEvent, Json>(options, EVENTS, () => DEFERRED_CHARS, () => 0);
  return {
    write(event, emit) {
      const out = { push: emit };
      if (isDeltaEvent(event)) {
        // its other fields redacted on their own (a hand-edited runId); changed, the event is written anew
        const fields = redactEvent({ ...event, delta: '' }, options) as Json;
        const same = Object.keys(fields).every((key) => key === 'delta' || fields[key] === (event as Json)[key]);
        return run.delta(same ? (event as Json) : fields, event.delta, same ? event : undefined, out);
      }
      if (BESIDE_TEXT.has(event.type)) return run.aside(redactEvent(event, options) as Json, out);
      run.settle(out);
      emit(redactEvent(event, options) as Json);
    },
    end: (emit) => run.settle({ push: emit }),
  };
}

/**
 * `picked` (the run picker and the check), then `redactor`. When the log breaks (a line that is not JSON, a bad
 * event, no run_end), what the redactor holds goes out first, redacted, and then the failure ends the run: nothing
 * replayed so far is lost.
 */
export function endingOnFailure<In, Mid, Out>(picked: Step<In, Mid>, redactor: Step<Mid, Out>): Step<In, Out> {
  /** A throw of the redactor's own is no broken log: it holds nothing to write. */
  let redactorFailed = false;
  const redact = (emit: (item: Out) => void) => (mid: Mid) => {
    try {
      redactor.write(mid, emit);
    } catch (error) {
      redactorFailed = true;
      throw error;
    }
  };
  const guarded = (run: () => void, emit: (item: Out) => void) => {
    try {
      run();
    } catch (error) {
      if (!redactorFailed) redactor.end?.(emit);
      throw error;
    }
  };
  return {
    write: (item, emit) => guarded(() => picked.write(item, redact(emit)), emit),
    end(emit) {
      guarded(() => picked.end?.(redact(emit)), emit);
      redactor.end?.(emit);
    },
  };
}
