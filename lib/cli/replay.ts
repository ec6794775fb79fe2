import { replayChain } from '../log-chains.js';
import { newRunId, RUN_ID_PATTERN } from '../protocol/ids.js';
import { OUTPUT_FORMATS } from '../output/serializer.js';
import { logRedaction, runChain, runCommand } from './command.js';
import type { CliIO } from './io.js';
import { logFraming, openLogs, type RawLogFraming } from './log-source.js';
import { outputFormatFromArgv } from './options.js';
import { choice, milliseconds } from './option-values.js';

type RawReplayOptions = RawLogFraming & { outputFormat: string; delay: string; newRunId?: boolean; run?: string };

/**
 * `zero replay [FILE...]`: one recorded run (of a log of several files read as one: the first, or --run's)
 * re-emitted as zero exec printed it; exits with its exit code. Bad flags or an unreadable file are said on stderr
 * (no run is made up); a log that breaks while its run is replayed ends that run with error + run_end, as exec would.
 */
export async function runReplay(files: string[], raw: RawReplayOptions, io: CliIO): Promise<void> {
  const format = outputFormatFromArgv(['-o', raw.outputFormat]);
  await runCommand(io, 'text', async () => {
    choice('--output-format', raw.outputFormat, OUTPUT_FORMATS);
    const delay = milliseconds('--delay', raw.delay);
    const source = openLogs(files, io.stdin);
    const runId = raw.newRunId ? newRunId() : undefined;
    const { chain, pick } = replayChain({ ...logFraming(raw), runId: raw.run, newRunId: runId, delay, format, stderr: io.stderr, redaction: await logRedaction(io) });
    // a failure is reported under the recorded runId, unless a hand-edited log put something else there, in the run's version
    const failureRunId = () => runId ?? (pick.chosen !== undefined && RUN_ID_PATTERN.test(pick.chosen) ? pick.chosen : undefined);
    return runChain(io, format, source, chain, () => pick.exitCode ?? 1, { runId: failureRunId, schemaVersion: () => pick.schemaVersion });
  });
}
