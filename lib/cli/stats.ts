import { OUTPUT_FORMATS } from '../../transforms/serialize.js';
import { Command, Option } from 'commander';
import { frame } from '../../transforms/frame.js';
import { logRedaction, runChain, runCommand } from './command.js';
import { checkFraming, framingOption, openLog } from './log-source.js';
import { choice } from './options.js';
import { statsReport } from '../logs/stats.js';
import { outputFormatFromArgv } from './options.js';
import type { CliIO } from './process.js';

type RawStatsOptions = { outputFormat: string; framing: string };

/** `zero stats FILE`: file → frame → per-run totals. */
export async function runStats(file: string | undefined, raw: RawStatsOptions, io: CliIO): Promise<void> {
  const format = outputFormatFromArgv(['-o', raw.outputFormat]);
  await runCommand(io, format, async () => {
    const chosen = choice('--output-format', raw.outputFormat, OUTPUT_FORMATS);
    const framing = checkFraming(raw.framing);
    const source = openLog(file, io.stdin);
    return runChain(io, format, source, [frame(framing), statsReport(chosen === 'text' ? 'text' : 'json', await logRedaction(io))], async () => 0);
  });
}

export function registerStats(program: Command, io: CliIO): void {
  program
    .command('stats')
    .description('Per run of a log: turns, tool calls by name and side effect, token totals, outcome and exit code.')
    .argument('[file]', 'the log (stdin for - or none)')
    .addOption(new Option('-o, --output-format <format>', 'text | json | stream-json (one JSON object per run)').default('text'))
    .addOption(framingOption())
    .addHelpText('after', '\nExamples:\n  $ zero stats run.jsonl\n  $ zero stats -o json run.jsonl | jq .tokens')
    .exitOverride()
    .configureOutput({ writeOut: (text) => void io.stdout.write(text), writeErr: () => {} })
    .action((file: string | undefined, options: RawStatsOptions) => runStats(file, options, io));
}
