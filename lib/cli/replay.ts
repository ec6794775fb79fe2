import { Command, Option } from 'commander';
import type { Transform } from 'node:stream';
import { newRunId, RUN_ID_PATTERN } from '../protocol/ids.js';
import { frame } from '../../transforms/frame.js';
import { pace, pickRun } from '../logs/replay.js';
import { logRedaction, runChain, runCommand } from './command.js';
import { checkFraming, framingOption, openLog } from './log-source.js';
import { choice, MAX_TIMER_MS, milliseconds } from './options.js';
import { validate } from '../../transforms/validate.js';
import { mapStream } from '../streams.js';
import { redactEvent } from '../redaction/index.js';
import type { Event, OutputEvent } from '../protocol/types.js';
import { stampEvent } from '../protocol/stamp.js';
import { OUTPUT_FORMATS, serialize } from '../../transforms/serialize.js';
import { outputFormatFromArgv } from './options.js';
import type { CliIO } from './process.js';

type RawReplayOptions = { outputFormat: string; framing: string; delay: string; newRunId?: boolean; run?: string };

const EXAMPLES = `
Examples:
  $ zero replay run.jsonl | my-client
  $ zero replay run.jsonl -o text --delay 50
  $ zero replay runs.jsonl --run run_20260101120000_abc123 --new-run-id

Several runs in the file and no --run: the first run is replayed.
Exit code: the recorded run's run_end exitCode (2 when the log is not a complete run).`;

/** `zero replay FILE`: file → frame → pick a run → validate(output) → (restamp) → pace → serialize. */
export async function runReplay(file: string | undefined, raw: RawReplayOptions, io: CliIO): Promise<void> {
  const format = outputFormatFromArgv(['-o', raw.outputFormat]);
  await runCommand(io, format, async () => {
    choice('--output-format', raw.outputFormat, OUTPUT_FORMATS);
    const framing = checkFraming(raw.framing);
    const delay = milliseconds('--delay', raw.delay)!;
    const source = openLog(file, io.stdin);
    const { stream: picker, pick } = pickRun(raw.run);
    const runId = raw.newRunId ? newRunId() : undefined;
    const redaction = await logRedaction(io);
    // a new runId only: each event keeps its own schemaVersion (the stamp stage would write the events in one version)
    const restamp = (event: OutputEvent) => (runId ? stampEvent<Event>(event, runId, event.schemaVersion) : event);
    // a log is input like any other: each recorded event is redacted again on the way out
    const redacted = mapStream((event: OutputEvent) => restamp(redactEvent(event, redaction)));
    const stages: Transform[] = [frame(framing), picker, validate('output', { label: 'recorded event' }), redacted, pace(delay), serialize(format, { stderr: io.stderr })];
    // a failure is reported under the recorded runId, unless a hand-edited log put something else there, in the run's version
    const failureRunId = () => runId ?? (pick.chosen !== undefined && RUN_ID_PATTERN.test(pick.chosen) ? pick.chosen : undefined);
    return runChain(io, format, source, stages, async () => pick.exitCode ?? 1, failureRunId, () => pick.schemaVersion);
  });
}

export function registerReplay(program: Command, io: CliIO): void {
  program
    .command('replay')
    .description('Re-emit a recorded run as zero exec printed it live, in any output format; exits with its exit code.')
    .argument('[file]', 'the recorded log (stdin for - or none)')
    .addOption(new Option('-o, --output-format <format>', 'text | json | stream-json').default('stream-json'))
    .addOption(framingOption())
    .option('--delay <ms>', `milliseconds between events (at most ${MAX_TIMER_MS})`, '0')
    .option('--new-run-id', 'stamp the events with a fresh runId')
    .option('--run <id>', 'the run to replay, in a log of several runs (default: the first)')
    .addHelpText('after', EXAMPLES)
    .exitOverride()
    .configureOutput({ writeOut: (text) => void io.stdout.write(text), writeErr: () => {} })
    .action((file: string | undefined, options: RawReplayOptions) => runReplay(file, options, io));
}
