import { getSystemErrorMap } from 'node:util';

/** Every failure the protocol can report is a ZeroError: its code, exit code and recoverability (docs/protocol.md §3). */
export class ZeroError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode: number,
    readonly recoverable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

export class UsageError extends ZeroError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('usage_error', message, 2, true, options);
  }
}

export class ProviderError extends ZeroError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('provider_error', message, 3, false, options);
  }
}

/**
 * A tool was asked for a path outside what it may touch (docs/protocol.md §3.2, `block.code`): outside_workspace, or
 * symlink_traversal when the path as written is inside but a symlink takes it out. A tool call's error, not the run's.
 */
export class SandboxError extends ZeroError {
  constructor(
    readonly block: 'outside_workspace' | 'symlink_traversal',
    /** The path as the model gave it. */
    readonly path: string,
    message: string,
    recoverable: boolean,
  ) {
    super('sandbox_error', message, 3, recoverable);
  }
}

export class MaxTurnsError extends ZeroError {
  constructor(maxTurns: number) {
    super('max_turns', `Reached the turn limit (${maxTurns}) before the model finished. Raise it with --max-turns.`, 4, true);
  }
}

/** A limit of the run (--max-budget-usd, --max-tool-calls) was reached: it stops before going past it. */
export class BudgetExceededError extends ZeroError {
  constructor(message: string) {
    super('budget_exceeded', message, 4, true);
  }
}

/** --run-timeout: the whole run's deadline passed; the model call and the tools running were stopped. */
export class RunTimeoutError extends ZeroError {
  constructor(seconds: number) {
    super('timeout', `The run reached its deadline (--run-timeout ${seconds}): the model call and the tools running were stopped.`, 4, true);
  }
}

/** --output-schema: the answer did not conform, after every retry (--output-retries). */
export class InvalidOutputError extends ZeroError {
  constructor(message: string) {
    super('invalid_output', message, 4, true);
  }
}

/** 128 + the signal's number, as a shell reports a process killed by it. SIGPIPE stands for stdout's reader gone (EPIPE). */
const signalExitCodes = { SIGHUP: 129, SIGINT: 130, SIGPIPE: 141, SIGTERM: 143 } as const;
export type CancelSignal = keyof typeof signalExitCodes;

export class CancelledError extends ZeroError {
  constructor(readonly signal: CancelSignal) {
    super('cancelled', signal === 'SIGPIPE' ? 'Cancelled: the reader of stdout went away.' : `Cancelled by ${signal}.`, signalExitCodes[signal], true);
  }
}

/** stdout cannot be written (a full disk, an I/O error): the run stops, since what it produces would be lost. */
export class StdoutError extends ZeroError {
  constructor(cause: NodeJS.ErrnoException) {
    super('output_error', `Cannot write to stdout: ${describeErrno(cause)}`, 1, false, { cause });
  }
}

/** "ENOSPC (No space left on device)" from an error such as fs or a socket throws. */
export function describeErrno(error: NodeJS.ErrnoException): string {
  const code = error.code;
  if (!code) return error.message;
  const errno = typeof error.errno === 'number' ? error.errno : undefined;
  const text = errno === undefined ? undefined : systemErrorText(errno);
  return text ? `${code} (${text})` : code;
}

function describeThrown(cause: unknown): string {
  if (cause instanceof Error) return cause.message;
  try {
    return String(cause);
  } catch {
    return 'a value that cannot be printed was thrown';
  }
}

export class CrashError extends ZeroError {
  constructor(cause: unknown) {
    const detail = describeThrown(cause);
    super('crash', `Internal error: ${detail || 'unknown failure'}`, 1, false, { cause });
  }
}

/** Anything thrown becomes a ZeroError; what is not one already is a bug (exit 1). */
export function toZeroError(error: unknown): ZeroError {
  return error instanceof ZeroError ? error : new CrashError(error);
}

function systemErrorText(errno: number): string | undefined {
  const text = getSystemErrorMap().get(errno)?.[1];
  return text && text.charAt(0).toUpperCase() + text.slice(1);
}
