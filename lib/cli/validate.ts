import { OUTPUT_FORMATS } from '../../transforms/serialize.js';
import { Command, Option } from 'commander';
import { frame } from '../../transforms/frame.js';
import { logRedaction, runChain, runCommand } from './command.js';
import { checkFraming, framingOption, openLog } from './log-source.js';
import { choice, nonNegativeInteger } from './options.js';
import { DEFAULT_MAX_PROBLEMS, logReport } from '../logs/validate.js';
import { outputFormatFromArgv } from './options.js';
import type { CliIO } from './process.js';

type RawValidateOptions = { outputFormat: string; framing: string; input?: boolean; maxProblems: string };

const EXAMPLES = `
Examples:
  $ zero exec -o stream-json "hi" > run.jsonl && zero validate run.jsonl
  $ jq . run.jsonl | zero validate -o json
  $ zero validate --input turns.jsonl

Exit codes: 0 valid, 1 invalid, 2 usage.`;

/** `zero validate [FILE]`: file → frame → schema + order rules → report. */
export async function runValidate(file: string | undefined, raw: RawValidateOptions, io: CliIO): Promise<void> {
  const format = outputFormatFromArgv(['-o', raw.outputFormat]);
  await runCommand(io, format, async () => {
    const chosen = choice('--output-format', raw.outputFormat, OUTPUT_FORMATS);
    const framing = checkFraming(raw.framing);
    const maxProblems = nonNegativeInteger('--max-problems', raw.maxProblems)!;
    const source = openLog(file, io.stdin);
    const report = logReport({ kind: raw.input ? 'input' : 'output', maxProblems, format: chosen === 'text' ? 'text' : 'json', redaction: await logRedaction(io) });
    return runChain(io, format, source, [frame(framing), report.stream], async () => ((await report.done).valid ? 0 : 1));
  });
}

export function registerValidate(program: Command, io: CliIO): void {
  program
    .command('validate')
    .description('Check a log against the output schema and the protocol\'s order rules, per run.')
    .argument('[file]', 'the log (stdin for - or none)')
    .addOption(new Option('-o, --output-format <format>', 'text | json | stream-json (json: one object per problem, then a summary)').default('text'))
    .addOption(framingOption())
    .option('--input', 'validate input events (the -i stream-json of zero exec) instead')
    .option('--max-problems <n>', 'problems printed at most', String(DEFAULT_MAX_PROBLEMS))
    .addHelpText('after', EXAMPLES)
    .exitOverride()
    .configureOutput({ writeOut: (text) => void io.stdout.write(text), writeErr: () => {} })
    .action((file: string | undefined, options: RawValidateOptions) => runValidate(file, options, io));
}
