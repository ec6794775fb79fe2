import { replayChain } from '../pipeline.js';
import { newRunId, RUN_ID_PATTERN } from '../protocol/ids.js';
import { OUTPUT_FORMATS } from '../output/serializer.js';
import { logRedaction, runChain, runCommand } from './command.js';
import type { CliIO } from './io.js';
import { checkFraming, openLog } from './log-source.js';
import { choice, milliseconds, outputFormatFromArgv } from './options.js';

type RawReplayOptions = { outputFormat: string; framing: string; delay: string; newRunId?: boolean; run?: string };

/** `zero replay [FILE]`: one recorded run re-emitted as zero exec printed it; exits with its exit code. */
export async function runReplay(file: string | undefined, raw: RawReplayOptions, io: CliIO): Promise<void> {
  const format = outputFormatFromArgv(['-o', raw.outputFormat]);
  await runCommand(io, format, async () => {
    choice('--output-format', raw.outputFormat, OUTPUT_FORMATS);
    const framing = checkFraming(raw.framing);
    const delay = milliseconds('--delay', raw.delay);
    const source = openLog(file, io.stdin);
    const runId = raw.newRunId ? newRunId() : undefined;
    const { chain, pick } = replayChain({ framing, runId: raw.run, newRunId: runId, delay, format, stderr: io.stderr, redaction: await logRedaction(io) });
    // a failure is reported under the recorded runId, unless a hand-edited log put something else there, in the run's version
    const failureRunId = () => runId ?? (pick.chosen !== undefined && RUN_ID_PATTERN.test(pick.chosen) ? pick.chosen : undefined);
    return runChain(io, format, source, chain, () => pick.exitCode ?? 1, { runId: failureRunId, schemaVersion: () => pick.schemaVersion });
  });
}
