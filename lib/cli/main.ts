import type { Command, CommanderError } from 'commander';
import { setFlagsFromString } from 'node:v8';
import { UsageError, describeErrno } from '../errors.js';
import { packageVersion } from '../package.js';
import { EXIT_STDOUT_CLOSED, processIO, watchStdout, type CliIO } from './io.js';

/** The command argv names (`zero sessions list`), as deep as its words go: the one whose help an error points to. */
export function commandOf(zero: Command, argv: string[]): string {
  const names = [zero.name()];
  let command = zero;
  for (const arg of argv) {
    if (arg === '--') break;
    if (arg.startsWith('-')) continue;
    const sub = command.commands.find((candidate) => candidate.name() === arg || candidate.aliases().includes(arg));
    if (!sub) break;
    [command, names[names.length]] = [sub, arg];
  }
  return names.join(' ');
}

/** Commander's own errors (unknown flag, missing value) are usage errors, reported in the format argv asked for. */
async function reportCommanderError(error: CommanderError, argv: string[], io: CliIO, failing: string): Promise<void> {
  const [{ runCommand }, { outputFormatFromArgv, schemaVersionFromArgv }] = await Promise.all([import('./command.js'), import('./options.js')]);
  const message = error.message.replace(/^error: /, '').replace(/[.\s]+$/, '');
  const usage = new UsageError(`${message.charAt(0).toUpperCase()}${message.slice(1)}. See ${failing} --help.`);
  const fail = () => {
    throw usage;
  };
  await runCommand(io, outputFormatFromArgv(argv), fail, { schemaVersion: schemaVersionFromArgv(argv, io.env) });
}

/** Help and --version: exit 0 only once stdout took every byte (`zero --help > /dev/full` is a failure, as for cat). */
async function exitOnceWritten(io: CliIO): Promise<void> {
  const flushError = await new Promise<NodeJS.ErrnoException | null | undefined>((resolve) => io.stdout.write('', resolve));
  const failure = watchStdout(io).failure ?? flushError;
  if (!failure) return io.exit(0);
  if (failure.code !== 'EPIPE') io.stderr.write(`zero: cannot write to stdout: ${describeErrno(failure)}\n`);
  io.exit(failure.code === 'EPIPE' ? EXIT_STDOUT_CLOSED : 1);
}

/**
 * `zero -p TEXT …` is `zero exec --prompt=TEXT …`, as in Zero: the inline form takes a prompt that starts with `-`
 * as it is. Other exec flags may follow.
 */
export function promptShortcut(argv: string[]): string[] {
  const [first = '', ...rest] = argv;
  if ((first === '-p' || first === '--prompt') && rest.length > 0) return ['exec', `--prompt=${rest[0]}`, ...rest.slice(1)];
  if (first === '-p' || first === '--prompt' || first.startsWith('--prompt=') || /^-p./.test(first)) return ['exec', ...argv];
  return argv;
}

/**
 * `zero --version` alone is answered before anything else loads (commander included): scripts call it to probe.
 * `-v` and `version` too, as Zero and most CLIs take them (`-v` is no flag of zero's otherwise).
 */
const VERSION_FLAGS = new Set(['--version', '-V', '-v', 'version']);

/**
 * exec's code baseline-compiled at each function's first call: a reply runs the code of its path (the SDK's stream,
 * the agent, the output chain, all loaded after this is set) a few dozen times, which V8 would interpret; each word
 * then reached stdout ~0.4 ms later at p90 (docs/performance.md, "The first word, interpreted").
 */
const ALWAYS_BASELINE = '--always-sparkplug';

/**
 * V8 settings of the commands that stream: the young generation kept at its start size (2 MiB; V8 doubles it up to
 * 32 MiB while much survives its scavenges), since what they hold dies young and a small young generation keeps each
 * scavenge short (a pause for the chunk exec is streaming) and `zero redact`'s peak RSS lower; and for exec an old
 * generation collected once it grows by 30% (the deltas of a huge answer are large objects that outlive a scavenge and
 * were left to pile up to 2-3x zero's live heap). stats and validate, which keep totals, spent 4–10% more CPU on the
 * extra scavenges: they keep V8's defaults (docs/performance.md).
 */
const V8_SETTINGS: Record<string, string[]> = {
  exec: ['--semi-space-growth-factor=1', '--heap-growing-percent=30', ALWAYS_BASELINE],
  redact: ['--semi-space-growth-factor=1'],
};

export async function main(given: string[] = process.argv.slice(2), io: CliIO = processIO()): Promise<void> {
  watchStdout(io);
  const argv = promptShortcut(given);
  if (argv.length === 1 && VERSION_FLAGS.has(argv[0]!)) {
    io.stdout.write(`${packageVersion()}\n`);
    return exitOnceWritten(io);
  }
  const [{ CommanderError }, { program }, { checkOptionValues }] = await Promise.all([import('commander'), import('./program.js'), import('./option-values.js')]);
  const zero = program(io).hook('preAction', (_zero, command) => {
    checkOptionValues(command, argv);
    // set before the command allocates: flags that only change when V8 collects, never what a program may do
    for (const flag of V8_SETTINGS[command.name()] ?? []) setFlagsFromString(flag);
  });
  try {
    await zero.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    // `zero` or `zero sessions` alone: commander printed the help on stderr; a missing command is a usage error
    if (error.code === 'commander.help' && error.exitCode !== 0) return io.exit(2);
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return exitOnceWritten(io);
    await reportCommanderError(error, argv, io, commandOf(zero, argv));
  }
}
