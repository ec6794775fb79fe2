import { Command, CommanderError, Option } from 'commander';
import { UsageError, describeErrno } from '../errors.js';
import { packageVersion } from '../package.js';
import type { Outcome } from '../pipeline.js';
import { runExec } from './exec.js';
import { runSessionsList, runSessionsShow } from './sessions.js';
import { registerValidate } from './validate.js';
import { registerStats } from './stats.js';
import { registerRedact } from './redact.js';
import { registerReplay } from './replay.js';
import { registerRender } from './render.js';
import { OUTPUT_FORMATS, type OutputFormat } from '../../transforms/serialize.js';
import { nothing, runCommand } from './command.js';
import { choice, MAX_TIMER_SECONDS, outputFormatFromArgv, schemaVersionFromArgv, type RawExecOptions } from './options.js';
import { EXIT_STDOUT_CLOSED, processIO, watchStdout, type CliIO } from './process.js';

const EXEC_EXAMPLES = `
Examples:
  $ zero exec --provider scripted --script examples/readme-demo.jsonl "What is this repo?"
  $ zero exec -i stream-json -o stream-json < turns.jsonl | jq -c .
  $ zero exec -o json -f prompt.md -C ../other-repo
  $ zero exec --auto high --disabled-tools bash "Fix the failing test"
  $ zero exec --list-tools --skip-permissions-unsafe
  $ zero exec --resume "And the tests?"
  $ OPENAI_BASE_URL=http://localhost:11434/v1 zero exec -m llama3.2 "Explain lib/"

Exit codes: 0 success, 1 internal error or stdout not writable, 2 usage, 3 provider, 4 turn limit,
129/130/143 cancelled by SIGHUP/SIGINT/SIGTERM (schema version 2: 130 for every signal; a second signal
kills the tools at once; run_end is still written), 141 stdout closed by its reader.

Providers: --provider, else $ZERO_PROVIDER, else activeProvider in ~/.config/zero/config.json or
.zero/config.json, else the key that is set. A profile in those files named like a built-in provider
(scripted, openai, …) wins over the built-in one; a profile that cannot be used fails only a run that selects it.

Protocol reference: docs/protocol.md in the package.`;

/** Repeatable flags gather their values. */
const collect = (value: string, previous: string[] = []) => [...previous, value];

function program(io: CliIO): Command {
  const zero = new Command('zero')
    .description('Run a coding agent headlessly; everything it does is reported as redacted JSON events.')
    .version(packageVersion(), '-V, --version')
    .exitOverride()
    .configureOutput({ writeOut: (text) => void io.stdout.write(text), writeErr: () => {} });

  zero
    .command('exec')
    .description('Run one prompt through the agent and report what it does on stdout.')
    .argument('[prompt...]', 'prompt text (words are joined by spaces)')
    .addOption(new Option('-i, --input-format <format>', 'text | stream-json (JSONL events on stdin or --file)').default('text'))
    .addOption(new Option('-o, --output-format <format>', 'text | json | stream-json').default('text'))
    .option('-f, --file <path>', 'prompt file (with -i stream-json: the JSONL input)')
    .option('-m, --model <name>', 'model name')
    .option('--provider <name>', 'openai | anthropic | openai-compatible | anthropic-compatible | scripted | a profile from the config files (else $ZERO_PROVIDER; a profile named like a built-in provider wins over it)')
    .option('--script <path>', 'the scripted provider\'s JSONL script (else $ZERO_SCRIPT)')
    .option('-C, --cwd <dir>', 'working directory; relative paths, --file included, resolve after it')
    .option('--max-turns <n>', 'model turns before the run stops (exit 4; default 12, or maxTurns from the config files)')
    .option('--max-line-bytes <n>', 'longest accepted input line', String(16 * 1024 * 1024))
    .option('--max-retries <n>', 'retries of a model call refused with 429 or 5xx, with backoff honouring Retry-After (default 2)')
    .option('--timeout <seconds>', `limit for one whole model call (default 600; more than ${MAX_TIMER_SECONDS} is a usage error)`)
    .option('--idle-timeout <seconds>', `limit on the silence between two stream chunks (default 120; more than ${MAX_TIMER_SECONDS} is a usage error)`)
    .option('--auto <level>', 'low | medium (only read-only tools, the default) | high (also tools that write and run commands)')
    .option('--skip-permissions-unsafe', 'let the model write files and run shell commands without asking (as --auto high)')
    .option('--enabled-tools <names>', 'only these tools (comma or space separated; repeatable)', collect)
    .option('--disabled-tools <names>', 'never these tools (comma or space separated; repeatable)', collect)
    .option('--add-dir <dir>', 'another directory write tools may change (repeatable)', collect)
    .option('--resume [id]', 'continue a session (without an id: the newest one for this working directory)')
    .option('--fork <id>', 'start a new session from a copy of that session\'s history')
    .option('--no-session', 'record nothing: no session is written to disk (also ZERO_NO_SESSION=1)')
    .option('--max-context-chars <n>', 'budget for the history a resumed session sends (oldest turns trimmed first; default 400000)')
    .option('--schema-version <n>', 'stream-json schema version 1 | 2 (else $ZERO_SCHEMA_VERSION, else the input events\' version, else 1)')
    .option('--reasoning-budget <tokens>', 'let Anthropic models think first, with up to this many tokens (at least 1024; off by default)')
    .option('--list-tools', 'print the tools the model would see with these flags, and exit')
    .option('--no-notify', 'accepted for wrappers that pass it: a headless run has nothing to notify')
    .option('--debug', 'diagnostics and stack traces on stderr (also ZERO_DEBUG=1)')
    .addHelpText('after', EXEC_EXAMPLES)
    .exitOverride()
    .configureOutput({ writeOut: (text) => void io.stdout.write(text), writeErr: () => {} })
    .action((words: string[], options: RawExecOptions) => runExec(words, options, io));

  const sessions = zero.command('sessions').description('List and show recorded sessions (see zero exec --resume / --fork).');
  const formatOption = () => new Option('-o, --output-format <format>', 'text | json | stream-json').default('text');
  sessions
    .command('list')
    .description('Every session, newest first: id, updated time, events, cwd, title.')
    .addOption(formatOption())
    .exitOverride()
    .configureOutput({ writeOut: (text) => void io.stdout.write(text), writeErr: () => {} })
    .action((options: { outputFormat: string }) => guarded(io, options.outputFormat, async (format) => {
      await runSessionsList(format, io);
      return nothing();
    }));
  sessions
    .command('show')
    .description("A session's events, as zero exec printed them, in any output format.")
    .argument('<id>', 'the session id (zero_…)')
    .addOption(formatOption())
    .exitOverride()
    .configureOutput({ writeOut: (text) => void io.stdout.write(text), writeErr: () => {} })
    .action((id: string, options: { outputFormat: string }) => guarded(io, options.outputFormat, async (format) => ({ readable: await runSessionsShow(id, format, io), exitCode: Promise.resolve(0) })));

  registerRender(zero, io);

  registerValidate(zero, io);
  registerStats(zero, io);
  registerRedact(zero, io);
  registerReplay(zero, io);

  return zero;
}

/** A sessions command: a bad format or an unknown session is a usage error, reported like exec's. */
function guarded(io: CliIO, rawFormat: string, command: (format: OutputFormat) => Promise<Outcome>): Promise<void> {
  return runCommand(io, outputFormatFromArgv(['-o', rawFormat]), () => command(choice('--output-format', rawFormat, OUTPUT_FORMATS)));
}

/** Commander's own errors (unknown flag, missing value) are usage errors, reported in the format argv asked for. */
async function reportCommanderError(error: CommanderError, argv: string[], io: CliIO): Promise<void> {
  const message = error.message.replace(/^error: /, '');
  const usage = new UsageError(`${message.charAt(0).toUpperCase()}${message.slice(1)}. See zero exec --help.`);
  await runCommand(
    io,
    outputFormatFromArgv(argv),
    () => {
      throw usage;
    },
    { schemaVersion: schemaVersionFromArgv(argv, io.env) },
  );
}

/** Help and --version: exit 0 only once stdout took every byte (`zero --help > /dev/full` is a failure, as for cat). */
async function exitOnceWritten(io: CliIO): Promise<void> {
  const flushError = await new Promise<NodeJS.ErrnoException | null | undefined>((resolve) => io.stdout.write('', resolve));
  const failure = watchStdout(io).failure ?? flushError;
  if (!failure) return io.exit(0);
  if (failure.code !== 'EPIPE') io.stderr.write(`zero: cannot write to stdout: ${describeErrno(failure)}\n`);
  io.exit(failure.code === 'EPIPE' ? EXIT_STDOUT_CLOSED : 1);
}

export async function main(argv: string[] = process.argv.slice(2), io: CliIO = processIO()): Promise<void> {
  watchStdout(io);
  try {
    await program(io).parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return exitOnceWritten(io);
    await reportCommanderError(error, argv, io);
  }
}
