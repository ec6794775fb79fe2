import type { CommanderError } from 'commander';
import { UsageError, describeErrno } from '../errors.js';
import { packageVersion } from '../package.js';
import { EXIT_STDOUT_CLOSED, processIO, watchStdout, type CliIO } from './io.js';

/** Commander's own errors (unknown flag, missing value) are usage errors, reported in the format argv asked for. */
async function reportCommanderError(error: CommanderError, argv: string[], io: CliIO): Promise<void> {
  const [{ runCommand }, { outputFormatFromArgv, schemaVersionFromArgv }] = await Promise.all([import('./command.js'), import('./options.js')]);
  const message = error.message.replace(/^error: /, '');
  const usage = new UsageError(`${message.charAt(0).toUpperCase()}${message.slice(1)}. See zero exec --help.`);
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

/** `zero --version` alone is answered before anything else loads (commander included): scripts call it to probe. */
const VERSION_FLAGS = new Set(['--version', '-V']);

export async function main(argv: string[] = process.argv.slice(2), io: CliIO = processIO()): Promise<void> {
  watchStdout(io);
  if (argv.length === 1 && VERSION_FLAGS.has(argv[0]!)) {
    io.stdout.write(`${packageVersion()}\n`);
    return exitOnceWritten(io);
  }
  const [{ CommanderError }, { program }] = await Promise.all([import('commander'), import('./program.js')]);
  try {
    await program(io).parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return exitOnceWritten(io);
    await reportCommanderError(error, argv, io);
  }
}
