import { PassThrough, Readable, pipeline, type Duplex } from 'node:stream';
import { reportFailure, type OutputChainOptions, type Outcome } from '../output-chain.js';
import { loadConfig } from '../providers/config.js';
import { credentialsInUse } from '../providers/index.js';
import type { RedactOptions } from '../redaction/index.js';
import type { SchemaVersion } from '../protocol/types.js';
import type { CliIO } from './io.js';
import { deliver } from './process.js';
import type { OutputFormat } from '../output/serializer.js';

/** What a failure report of a log command says besides the error: the run it names and its schema version, once known. */
export type FailureReport = { runId?: () => string | undefined; schemaVersion?: () => SchemaVersion | undefined };

/**
 * Runs a chain from `source` to bytes. A stage that fails (an unreadable
 * file, a line over the limit) ends the output with the failure, reported as
 * exec reports it (`error` + `run_end` in the format asked for, under `runId`,
 * in `schemaVersion`, when they say), and its exit code.
 */
export function runChain(io: CliIO, format: OutputFormat, source: Readable, chain: Duplex, exitCode: () => Promise<number> | number, report: FailureReport = {}): Outcome {
  const out = new PassThrough();
  let failure: Outcome | undefined;
  const finished = new Promise<void>((resolve) => {
    pipeline(source, chain, (error) => {
      if (error) {
        failure = reportFailure(error, { format, runId: report.runId?.(), schemaVersion: report.schemaVersion?.(), secrets: credentialsInUse(io.env), stderr: io.stderr });
        failure.readable.pipe(out);
      } else out.end();
      resolve();
    });
  });
  chain.pipe(out, { end: false });
  const code = finished.then(() => (failure ? failure.exitCode : exitCode()));
  return { readable: out, exitCode: code };
}

/** Delivers a command's outcome; a usage error before the chain starts is reported in the chosen format (and schema version). */
export async function runCommand(io: CliIO, format: OutputFormat, build: () => Outcome | Promise<Outcome>, report: Pick<OutputChainOptions, 'schemaVersion'> = {}): Promise<void> {
  let outcome: Outcome;
  try {
    outcome = await build();
  } catch (error) {
    outcome = reportFailure(error, { ...report, format, secrets: credentialsInUse(io.env), stderr: io.stderr });
  }
  await deliver(io, outcome.readable, outcome.exitCode);
}

/**
 * What a log command redacts with: the credentials in the environment and
 * every apiKey the config files hold (a config file that cannot be read adds none:
 * reading a log must not fail on it).
 */
export async function logRedaction(io: CliIO): Promise<RedactOptions> {
  const config = await loadConfig(process.cwd(), io.env).catch(() => undefined);
  return { secrets: credentialsInUse(io.env, undefined, config) };
}

export const nothing = (): Outcome => ({ readable: Readable.from([]), exitCode: Promise.resolve(0) });
