import { redactLogChain } from '../pipeline.js';
import { logRedaction, runChain, runCommand } from './command.js';
import type { CliIO } from './io.js';
import { checkFraming, openLog } from './log-source.js';

/** `zero redact [FILE]`: the log, every secret replaced (per run, streaming-safe); clean lines as they came. */
export async function runRedact(file: string | undefined, raw: { framing: string }, io: CliIO): Promise<void> {
  await runCommand(io, 'stream-json', async () => {
    const framing = checkFraming(raw.framing);
    const source = openLog(file, io.stdin);
    return runChain(io, 'stream-json', source, redactLogChain({ framing, redaction: await logRedaction(io) }), () => 0);
  });
}
