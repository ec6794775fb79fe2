import { Command } from 'commander';
import { frame } from '../../transforms/frame.js';
import { redactLog } from '../logs/redact.js';
import { logRedaction, runChain, runCommand } from './command.js';
import { checkFraming, framingOption, openLog } from './log-source.js';
import type { CliIO } from './process.js';

type RawRedactOptions = { framing: string };

/** `zero redact [FILE]`: file → frame → redact (per run, streaming-safe) → the same log, secrets replaced. */
export async function runRedact(file: string | undefined, raw: RawRedactOptions, io: CliIO): Promise<void> {
  await runCommand(io, 'stream-json', async () => {
    const framing = checkFraming(raw.framing);
    const source = openLog(file, io.stdin);
    return runChain(io, 'stream-json', source, [frame(framing), redactLog(await logRedaction(io))], async () => 0);
  });
}

export function registerRedact(program: Command, io: CliIO): void {
  program
    .command('redact')
    .description('Write a log with every secret replaced by [REDACTED]; lines with nothing to redact come out byte-identical.')
    .argument('[file]', 'the log (stdin for - or none)')
    .addOption(framingOption())
    .addHelpText('after', '\nExamples:\n  $ zero redact run.jsonl > shareable.jsonl\n  $ jq . run.jsonl | zero redact > shareable.jsonl   # values framing: written back as JSONL')
    .exitOverride()
    .configureOutput({ writeOut: (text) => void io.stdout.write(text), writeErr: () => {} })
    .action((file: string | undefined, options: RawRedactOptions) => runRedact(file, options, io));
}
