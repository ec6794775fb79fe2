import { statsChain } from '../log-chains.js';
import { OUTPUT_FORMATS } from '../output/serializer.js';
import { logRedaction, runChain, runCommand } from './command.js';
import type { CliIO } from './io.js';
import { logFraming, openLogs, type RawLogFraming } from './log-source.js';
import { choice } from './option-values.js';

/** `zero stats [FILE...]`: per-run totals of a log (several files read as one); a failure is said on stderr. */
export async function runStats(files: string[], raw: RawLogFraming & { outputFormat: string }, io: CliIO): Promise<void> {
  await runCommand(io, 'text', async () => {
    const format = choice('--output-format', raw.outputFormat, OUTPUT_FORMATS);
    const source = openLogs(files, io.stdin);
    return runChain(io, 'text', source, statsChain({ ...logFraming(raw), format, redaction: await logRedaction(io) }), () => 0);
  });
}
