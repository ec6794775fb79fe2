import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { constants } from 'node:os';
import { StringDecoder } from 'node:string_decoder';
import { capOutput, MAX_OUTPUT_BYTES, TruncatedFailure } from './output.js';
import { killProcessGroups, trackProcessGroups } from './process_group.js';
import { shellInvocation, unconfinedPolicy, type ShellPolicy } from './shell_sandbox.js';
import type { Tool, ToolContext } from './types.js';

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

/** What the model is told about where its commands run. */
function describe(policy?: ShellPolicy): string {
  const start = 'Run a command with `bash -c` in the working directory (stdin closed); returns stdout and stderr together, then the exit code.';
  if (!policy || policy.sandbox === 'off') return `${start} Not sandboxed: the command can read and change anything the agent can.`;
  const writable = policy.sandbox === 'workspace-write' ? 'can write only the working directory, the added directories and /tmp' : 'can write only /tmp';
  const network = policy.network ? 'it may use the network' : 'there is no network';
  return `${start} Sandboxed (${policy.sandbox}): it can read the file system but ${writable}; ${network}; nothing it starts outlives the call.`;
}

/**
 * The bash tool running its commands under `policy` (see lib/tools/shell_sandbox.ts); without one, unconfined,
 * with the environment childEnvironment gives (never the run's credentials).
 */
export function createBash(policy?: ShellPolicy): Tool<BashArgs, { output: string; truncated: boolean }> {
  return {
    name: 'bash',
    description: describe(policy),
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
      const result = await runOnce(args, context);
      // a mount that came or went while bwrap copied the mount tree failed the sandbox's setup, before the command ran
      return SETUP_RACE.test(result.output) ? runOnce(args, context) : result;
    },
  };

  async function runOnce(args: BashArgs, context: ToolContext): Promise<{ output: string; truncated: boolean }> {
    if (context.signal.aborted) throw new Error('The command was cancelled before it started.');
    const { file, args: argv, env, infoFd } = shellInvocation(args.command, context.cwd, policy ?? unconfinedPolicy(context.cwd));
    // stderr is still read for what bash (or bwrap) prints before the command's own `exec 2>&1`.
    const stdio = infoFd === undefined ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe', 'pipe'];
    const child = spawn(file, argv, { cwd: context.cwd, env, detached: true, stdio: stdio as ['ignore', 'pipe', 'pipe'] });
    const output = new CappedOutput(MAX_OUTPUT_BYTES);
    child.stdout!.on('data', output.add);
    child.stderr!.on('data', output.add);
    const exit = exited(child);
    const stop = whenToStop(args.timeout_ms ?? DEFAULT_TIMEOUT_MS, context.signal);
    // bwrap's group, or bash's; and the sandbox's init's, once bwrap has told its pid
    const groups = child.pid === undefined ? [] : [child.pid];
    const untrack = trackProcessGroups(groups);
    const initKnown = (infoFd === undefined ? Promise.resolve(undefined) : readSandboxInit(child, infoFd)).then((init) => {
      if (init !== undefined) groups.push(init);
    });
    try {
      const first = await Promise.race([exit, stop.reason]);
      if (typeof first !== 'string') {
        // Background processes the command started would otherwise outlive the tool call, and zero.
        await initKnown;
        await killProcessGroups(groups, LEFTOVER_GRACE_MS);
        return report(output, first);
      }
      // cancelled while bwrap sets the sandbox up: its init is found only by the pid bwrap is about to tell
      await Promise.race([initKnown, sleep(TERM_GRACE_MS, undefined, { ref: false })]);
      await killProcessGroups(groups, TERM_GRACE_MS);
      await exit.catch(() => undefined);
      throw stopped(`${first} and was killed, with its whole process group.`, output);
    } finally {
      stop.clear();
      untrack();
    }
  }
}

/**
 * bwrap's own failure to copy the mount tree (`--ro-bind / /`) when a mount under it was made or taken away meanwhile
 * (an automounter, a container's volume, a tmpfs another program unmounts): its one line, then exit code 1. The
 * command never ran, so it is run once more.
 */
const SETUP_RACE = /^bwrap: Can't (?:bind mount|remount|mount) [^\n]*(?:Unable to apply mount flags|No such file or directory|Invalid argument)[^\n]*\nexit code 1$/;

/** The pid of the sandbox's init, from bwrap's `--info-fd`; undefined if bwrap ends or closes it without telling. */
function readSandboxInit(child: ChildProcess, fd: number): Promise<number | undefined> {
  const info = child.stdio[fd] as NodeJS.ReadableStream | null;
  if (!info) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    let text = '';
    const told = () => {
      const pid = /"child-pid"\s*:\s*(\d+)/.exec(text)?.[1];
      return pid === undefined ? undefined : Number(pid);
    };
    info.setEncoding('utf8');
    info.on('data', (chunk: string) => {
      if (text.length < 4096) text += chunk;
      if (told() !== undefined) resolve(told());
    });
    info.once('error', () => resolve(undefined));
    info.once('close', () => resolve(told()));
    child.once('exit', () => resolve(told()));
  });
}

export const bash = createBash();

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

/** The note that says how much a command printed when only the start of it is kept. */
const cutNote = (output: CappedOutput) => `(Output cut: the command printed ${output.totalBytes} bytes; only the start is shown.)`;

function report(output: CappedOutput, { code, signal }: ExitStatus): { output: string; truncated: boolean } {
  // A shell reports death by signal N as status 128 + N.
  const exitLine = `exit code ${code ?? 128 + (signal ? constants.signals[signal] : 0)}`;
  const text = output.text();
  if (!output.overflowed) return { output: text === '' || text.endsWith('\n') ? text + exitLine : `${text}\n${exitLine}`, truncated: false };
  // The note and the exit code go inside the toolbox's 64 KiB cap, so the model always sees how the command ended.
  const trailer = `\n${cutNote(output)}\n${exitLine}`;
  const head = capOutput(text, MAX_OUTPUT_BYTES - Buffer.byteLength(trailer)).output;
  return { output: head + trailer, truncated: true };
}

/** The error of a command stopped by its timeout or a cancel, with what it printed so far: cut, and saying so, like a result. */
function stopped(why: string, output: CappedOutput): Error {
  const text = output.text();
  if (!text) return new Error(why);
  const start = `${why}\nOutput so far:\n`;
  if (!output.overflowed && Buffer.byteLength(start + text) <= MAX_OUTPUT_BYTES) return new Error(start + text);
  const trailer = `\n${cutNote(output)}`;
  const head = capOutput(text, MAX_OUTPUT_BYTES - Buffer.byteLength(start + trailer)).output;
  return new TruncatedFailure(start + head + trailer);
}
