import { redactLogChain } from '../logs/redact-chain.js';
import { logRedaction, runChain, runCommand } from './command.js';
import type { CliIO } from './io.js';
import { logFraming, openLogs, type RawLogFraming } from './log-source.js';

/**
 * `zero redact [FILE...]`: the log (several files read as one), every secret replaced (per run, streaming-safe);
 * clean lines as they came. A failure is said on stderr: stdout is a copy of the log, with no run made up.
 */
export async function runRedact(files: string[], raw: RawLogFraming, io: CliIO): Promise<void> {
  await runCommand(io, 'text', async () => {
    const source = openLogs(files, io.stdin);
    return runChain(io, 'text', source, redactLogChain({ ...logFraming(raw), redaction: await logRedaction(io) }), () => 0);
  });
}
