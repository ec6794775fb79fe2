import { validateLogChain } from '../log-chains.js';
import { OUTPUT_FORMATS } from '../output/serializer.js';
import { logRedaction, runChain, runCommand } from './command.js';
import type { CliIO } from './io.js';
import { logFraming, openLogs, type RawLogFraming } from './log-source.js';
import { choice, nonNegativeInteger } from './option-values.js';

type RawValidateOptions = RawLogFraming & { outputFormat: string; input?: boolean; maxProblems: string };

/**
 * `zero validate [FILE...]`: each line against the schema of its version, and the order rules per run (several
 * files read as one log); exit 0 valid, 1 not. A failure is said on stderr.
 */
export async function runValidate(files: string[], raw: RawValidateOptions, io: CliIO): Promise<void> {
  await runCommand(io, 'text', async () => {
    const chosen = choice('--output-format', raw.outputFormat, OUTPUT_FORMATS);
    const maxProblems = nonNegativeInteger('--max-problems', raw.maxProblems);
    const source = openLogs(files, io.stdin);
    const kind = raw.input ? 'input' : 'output';
    const { chain, summary } = validateLogChain({ ...logFraming(raw), kind, maxProblems, format: chosen === 'text' ? 'text' : 'json', redaction: await logRedaction(io) });
    return runChain(io, 'text', source, chain, () => (summary()?.valid ? 0 : 1));
  });
}
