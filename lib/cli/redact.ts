import { redactLogChain } from '../pipeline.js';
import { logRedaction, runChain, runCommand } from './command.js';
import type { CliIO } from './io.js';
import { checkFraming, openLogs } from './log-source.js';

/**
 * `zero redact [FILE...]`: the log (several files read as one), every secret replaced (per run, streaming-safe);
 * clean lines as they came. A failure is said on stderr: stdout is a copy of the log, with no run made up.
 */
export async function runRedact(files: string[], raw: { framing: string }, io: CliIO): Promise<void> {
  await runCommand(io, 'text', async () => {
    const framing = checkFraming(raw.framing);
    const source = openLogs(files, io.stdin);
    return runChain(io, 'text', source, redactLogChain({ framing, redaction: await logRedaction(io) }), () => 0);
  });
}
