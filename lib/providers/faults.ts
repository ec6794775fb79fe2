import { ProviderError, ZeroError } from '../errors.js';
import { isTextTooDeep, TOO_DEEP_ARGUMENTS } from '../protocol/depth.js';

/** The shape both official SDKs give their HTTP errors (openai's and @anthropic-ai/sdk's APIError). */
type SdkError = Error & { status?: number; error?: unknown };

function detail(error: SdkError): string {
  const body = error.error as { error?: { message?: unknown }; message?: unknown } | undefined;
  const message = body?.error?.message ?? body?.message ?? error.message;
  return typeof message === 'string' && message ? message : 'no details';
}

/**
 * Any failure of a model call as a ProviderError (exit 3) that says what
 * happened: a refused key, a rate limit after the retries, a server error, a
 * dropped connection, a malformed stream. A ZeroError (a timeout we raised,
 * a cancellation) passes through unchanged.
 */
export function providerFailure(error: unknown, provider: string): ZeroError {
  if (error instanceof ZeroError) return error;
  const sdk = error as SdkError;
  const status = typeof sdk?.status === 'number' ? sdk.status : undefined;
  if (status === 401 || status === 403) {
    return new ProviderError(`${provider} refused the API key (HTTP ${status}): ${detail(sdk)}. Check the key you configured.`, { cause: error });
  }
  if (status === 429) return new ProviderError(`${provider} rate limit (HTTP 429) persisted after the retries: ${detail(sdk)}`, { cause: error });
  if (status !== undefined) return new ProviderError(`${provider} request failed (HTTP ${status}): ${detail(sdk)}`, { cause: error });
  if (sdk?.error !== null && typeof sdk?.error === 'object') {
    // An error event inside the stream: both SDKs raise it as an APIError without a status.
    const body = sdk.error as { type?: unknown; error?: { type?: unknown } };
    const kind = body.error?.type ?? body.type;
    return new ProviderError(`${provider} reported an error in the stream${typeof kind === 'string' ? ` (${kind})` : ''}: ${detail(sdk)}`, { cause: error });
  }
  if (error instanceof SyntaxError) return new ProviderError(`${provider} sent a malformed stream chunk: ${error.message}`, { cause: error });
  return new ProviderError(`${provider} connection failed: ${causes(error)}`, { cause: error });
}

/** "fetch failed: connect ECONNREFUSED 127.0.0.1:11434": the messages down the cause chain, which name what really failed. */
function causes(error: unknown): string {
  const messages: string[] = [];
  for (let current = error, depth = 0; current !== undefined && depth < 4; depth++) {
    messages.push(current instanceof Error ? current.message : String(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  // each SDK message ends a sentence ("Connection error."): joined, they read as one line without doubled stops
  return [...new Set(messages.map((message) => message.replace(/[.\s]+$/, '')).filter(Boolean))].join(': ');
}

export type Deadlines = {
  /** Aborts the call when the whole-call or the idle limit passes, or the run is cancelled. */
  signal: AbortSignal;
  /** A chunk arrived: restart the idle clock. */
  touch(): void;
  /** The ZeroError to throw for why the call was aborted: a timeout of ours, or the run's cancellation. */
  reason(): unknown;
  dispose(): void;
};

/** Whole-call and idle timeouts for one streamed model call, tied to the run's own signal. */
export function deadlines(run: AbortSignal, provider: string, options: { timeoutMs: number; idleTimeoutMs: number }): Deadlines {
  const controller = new AbortController();
  const abort = (reason: unknown) => {
    if (!controller.signal.aborted) controller.abort(reason);
  };
  const onRunAbort = () => abort(run.reason);
  run.addEventListener('abort', onRunAbort, { once: true });
  if (run.aborted) onRunAbort();
  const whole = setTimeout(() => abort(new ProviderError(`${provider} call timed out after ${options.timeoutMs / 1000} s (--timeout).`)), options.timeoutMs);
  // A chunk only notes the time (a timer re-armed at every chunk cost each streamed word ~0.05 ms in the timer
  // lists); the idle timer, when it fires, looks at how long it has been and waits out the rest.
  let lastTouch = performance.now();
  const touch = () => {
    lastTouch = performance.now();
  };
  const checkIdle = () => {
    const quiet = performance.now() - lastTouch;
    if (quiet < options.idleTimeoutMs) idle = setTimeout(checkIdle, options.idleTimeoutMs - quiet);
    else abort(new ProviderError(`${provider} stream stalled: no data for ${options.idleTimeoutMs / 1000} s (--idle-timeout).`));
  };
  let idle = setTimeout(checkIdle, options.idleTimeoutMs);
  return {
    signal: controller.signal,
    touch,
    reason: () => controller.signal.reason,
    dispose() {
      clearTimeout(whole);
      clearTimeout(idle);
      run.removeEventListener('abort', onRunAbort);
    },
  };
}

/** Parses streamed tool arguments; an empty string is `{}`, invalid JSON gives `argsError` for the model to see. */
export function parseToolArguments(raw: string): { args: unknown; argsError?: string } {
  if (raw.trim() === '') return { args: {} };
  if (isTextTooDeep(raw)) return { args: undefined, argsError: TOO_DEEP_ARGUMENTS };
  try {
    return { args: JSON.parse(raw) };
  } catch (error) {
    return { args: undefined, argsError: `The tool arguments are not valid JSON (${(error as Error).message}): ${raw.slice(0, 200)}` };
  }
}
