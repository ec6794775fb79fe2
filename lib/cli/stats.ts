import { statsChain } from '../pipeline.js';
import { OUTPUT_FORMATS } from '../output/serializer.js';
import { logRedaction, runChain, runCommand } from './command.js';
import type { CliIO } from './io.js';
import { checkFraming, openLog } from './log-source.js';
import { choice, outputFormatFromArgv } from './options.js';

/** `zero stats [FILE]`: per-run totals of a log. */
export async function runStats(file: string | undefined, raw: { outputFormat: string; framing: string }, io: CliIO): Promise<void> {
  const format = outputFormatFromArgv(['-o', raw.outputFormat]);
  await runCommand(io, format, async () => {
    const chosen = choice('--output-format', raw.outputFormat, OUTPUT_FORMATS);
    const framing = checkFraming(raw.framing);
    const source = openLog(file, io.stdin);
    return runChain(io, format, source, statsChain({ framing, format: chosen, redaction: await logRedaction(io) }), () => 0);
  });
}
