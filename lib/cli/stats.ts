import { statsChain } from '../pipeline.js';
import { OUTPUT_FORMATS } from '../output/serializer.js';
import { logRedaction, runChain, runCommand } from './command.js';
import type { CliIO } from './io.js';
import { checkFraming, openLogs } from './log-source.js';
import { choice } from './option-values.js';

/** `zero stats [FILE...]`: per-run totals of a log (several files read as one); a failure is said on stderr. */
export async function runStats(files: string[], raw: { outputFormat: string; framing: string }, io: CliIO): Promise<void> {
  await runCommand(io, 'text', async () => {
    const format = choice('--output-format', raw.outputFormat, OUTPUT_FORMATS);
    const framing = checkFraming(raw.framing);
    const source = openLogs(files, io.stdin);
    return runChain(io, 'text', source, statsChain({ framing, format, redaction: await logRedaction(io) }), () => 0);
  });
}
