import { spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import { StringDecoder } from 'node:string_decoder';
import { capOutput, MAX_OUTPUT_BYTES } from './output.js';
import { killProcessGroup, trackProcessGroup } from './process_group.js';
import type { Tool } from './types.js';

type BashArgs = { command: string; timeout_ms?: number };
type ExitStatus = { code: number | null; signal: NodeJS.Signals | null };

const DEFAULT_TIMEOUT_MS = 120_000;
const MAX_TIMEOUT_MS = 600_000;
/** How long SIGTERM has to end the command's process group before SIGKILL. */
const TERM_GRACE_MS = 2000;
/** Once bash has exited, how long what it left running in its group (`sleep 1000 &`) has to end after SIGTERM. */
const LEFTOVER_GRACE_MS = 500;
/** Once bash has exited, how long to wait for the rest of its output: a background process may hold the pipes open. */
const DRAIN_MS = 200;

export const bash: Tool<BashArgs, { output: string; truncated: boolean }> = {
  name: 'bash',
  description:
    'Run a command with `bash -c` in the working directory (stdin closed); returns stdout and stderr together, then the exit code. Not sandboxed: the command can read and change anything the agent can.',
  parameters: {
    type: 'object',
    properties: {
      command: { type: 'string', minLength: 1, description: 'The bash command line or script.' },
      timeout_ms: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_TIMEOUT_MS,
        description: `Kill the command after this many milliseconds (default ${DEFAULT_TIMEOUT_MS}, at most ${MAX_TIMEOUT_MS}).`,
      },
    },
    required: ['command'],
    additionalProperties: false,
  },
  sideEffect: 'shell',
  permission: 'prompt',
  async run(args, context) {
    if (context.signal.aborted) throw new Error('The command was cancelled before it started.');
    // `exec 2>&1` on the command's own first line merges stderr into stdout in the order written without shifting
    // line numbers in bash's messages; stderr is still read for what bash prints before that (a syntax error).
    const child = spawn('bash', ['-c', `exec 2>&1; ${args.command}`], { cwd: context.cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = new CappedOutput(MAX_OUTPUT_BYTES);
    child.stdout!.on('data', output.add);
    child.stderr!.on('data', output.add);
    const exit = exited(child);
    const stop = whenToStop(args.timeout_ms ?? DEFAULT_TIMEOUT_MS, context.signal);
    const untrack = child.pid === undefined ? () => {} : trackProcessGroup(child.pid);
    try {
      const first = await Promise.race([exit, stop.reason]);
      if (typeof first !== 'string') {
        // Background processes the command started would otherwise outlive the tool call, and zero.
        if (child.pid !== undefined) await killProcessGroup(child.pid, LEFTOVER_GRACE_MS);
        return report(output, first);
      }
      if (child.pid !== undefined) await killProcessGroup(child.pid, TERM_GRACE_MS);
      await exit.catch(() => undefined);
      const text = output.text();
      throw new Error(`${first} and was killed, with its whole process group.${text ? `\nOutput so far:\n${text}` : ''}`);
    } finally {
      stop.clear();
      untrack();
    }
  },
};

/** Collects what the command prints, keeping at most `limit` bytes however much more it prints. */
class CappedOutput {
  private readonly decoder = new StringDecoder('utf8');
  private kept = '';
  private keptBytes = 0;
  totalBytes = 0;

  constructor(private readonly limit: number) {}

  add = (chunk: Buffer): void => {
    this.totalBytes += chunk.length;
    const room = this.limit - this.keptBytes;
    if (room <= 0) return;
    const part = chunk.subarray(0, room);
    this.keptBytes += part.length;
    this.kept += this.decoder.write(part);
  };

  get overflowed(): boolean {
    return this.totalBytes > this.keptBytes;
  }

  /** The text kept so far; a character cut at the limit is left out. */
  text(): string {
    return this.overflowed ? this.kept : this.kept + this.decoder.end();
  }
}

/** Resolves when bash has exited and its output has been read (or DRAIN_MS has passed); rejects if it cannot start. */
function exited(child: ChildProcess): Promise<ExitStatus> {
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      const drained = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        resolve({ code, signal });
      }, DRAIN_MS);
      child.once('close', () => {
        clearTimeout(drained);
        resolve({ code, signal });
      });
    });
  });
}

/** `reason` resolves with why the command must stop: its timeout passed or `signal` was aborted. */
function whenToStop(timeoutMs: number, signal: AbortSignal): { reason: Promise<string>; clear: () => void } {
  let clear = () => {};
  const reason = new Promise<string>((resolve) => {
    const timer = setTimeout(() => resolve(`The command timed out after ${timeoutMs} ms`), timeoutMs);
    const onAbort = () => resolve('The command was cancelled');
    signal.addEventListener('abort', onAbort, { once: true });
    clear = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    };
  });
  return { reason, clear };
}

function report(output: CappedOutput, { code, signal }: ExitStatus): { output: string; truncated: boolean } {
  // A shell reports death by signal N as status 128 + N.
  const exitLine = `exit code ${code ?? 128 + (signal ? constants.signals[signal] : 0)}`;
  const text = output.text();
  if (!output.overflowed) return { output: text === '' || text.endsWith('\n') ? text + exitLine : `${text}\n${exitLine}`, truncated: false };
  // The note and the exit code go inside the toolbox's 64 KiB cap, so the model always sees how the command ended.
  const trailer = `\n(Output cut: the command printed ${output.totalBytes} bytes; only the start is shown.)\n${exitLine}`;
  const head = capOutput(text, MAX_OUTPUT_BYTES - Buffer.byteLength(trailer)).output;
  return { output: head + trailer, truncated: true };
}
