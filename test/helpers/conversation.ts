import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import type { Test } from 'tap';
import { createLogChecker } from '../../lib/logs/validate.js';
import { ZERO, cleanEnv, writeScript } from './zero.js';
import { repoPath } from './repo.js';
import { startHere } from './cli.js';

export type Event = Record<string, unknown>;

/** What a client can do while it reads the events: send input events, close stdin, send a signal (to a process). */
export type Client = {
  send(event: object): void;
  /** Sends many events as fast as zero reads them (waiting whenever the pipe is full). */
  sendMany(events: Iterable<object>): Promise<void>;
  end(): void;
  kill(signal: NodeJS.Signals): void;
  /** The process's pid (`process: true` only). */
  pid: number;
};

export type Conversed = { events: Event[]; stderr: string; code: number | null; problems: string[] };

/** zero exec's ends as a client holds them: its stdin, its stdout, its stderr so far, its exit. */
type Zero = { stdin: Writable; stdout: Readable; stderr(): string; exited: Promise<number | null>; kill(signal: NodeJS.Signals): void; pid: number };

function spawned(args: string[], env: NodeJS.ProcessEnv): Zero {
  const child = spawn(process.execPath, [ZERO, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const lastLine = new Promise<void>((resolve) => child.stdout.once('end', resolve));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => void lastLine.then(() => resolve(code))));
  return { stdin: child.stdin, stdout: child.stdout, stderr: () => stderr, exited, kill: (signal) => void child.kill(signal), pid: child.pid! };
}

function inProcess(args: string[], env: NodeJS.ProcessEnv): Zero {
  const stdin = new PassThrough();
  const running = startHere(args, { stdin, env });
  // what zero wrote before it exited is read in the same turn of the event loop as its lines
  const exited = running.exited.then((code) => new Promise<number>((resolve) => setImmediate(() => resolve(code))));
  const kill = () => {
    throw new Error('converse: a signal needs a process (converse(..., { process: true }))');
  };
  return { stdin, stdout: running.stdout, stderr: running.stderr, exited, kill, pid: process.pid };
}

/**
 * Drives `zero exec --multi-turn` as a client does: stdin and stdout both open, each event read as a line
 * arrives and answered by `onEvent`; `start` sends what comes first. Input events get `schemaVersion` (1 unless
 * given). `problems` are what zero validate finds in the output (schema and order rules). zero runs in this
 * process (test/helpers/cli.ts) unless `process` asks for bin/zero: for signals and the process's memory.
 */
export async function converse(
  args: string[],
  start: (client: Client) => void,
  onEvent: (event: Event, client: Client) => void = () => {},
  options: { env?: NodeJS.ProcessEnv; version?: 1 | 2; process?: boolean } = {},
): Promise<Conversed> {
  const zero = (options.process ? spawned : inProcess)(['exec', '-i', 'stream-json', '--multi-turn', ...args], options.env ?? cleanEnv());
  const line = (event: object) => `${JSON.stringify({ schemaVersion: options.version ?? 1, ...event })}\n`;
  const client: Client = {
    send: (event) => void (zero.stdin.writable && zero.stdin.write(line(event))),
    async sendMany(events) {
      for (const event of events) {
        if (!zero.stdin.writable) return;
        if (!zero.stdin.write(line(event))) await new Promise((resolve) => zero.stdin.once('drain', resolve));
      }
    },
    end: () => void zero.stdin.end(),
    kill: zero.kill,
    pid: zero.pid,
  };
  zero.stdin.on('error', () => {});
  const events: Event[] = [];
  createInterface({ input: zero.stdout }).on('line', (line) => {
    const event = JSON.parse(line) as Event;
    events.push(event);
    onEvent(event, client);
  });
  start(client);
  const code = await zero.exited;
  const checker = createLogChecker('output');
  const found = [...events.flatMap((value, index) => checker.item({ value, lineNo: index + 1 })), ...checker.end()];
  return { events, stderr: zero.stderr(), code, problems: found.map((problem) => JSON.stringify(problem)) };
}

export const say = (content: string) => ({ type: 'message', role: 'user', content });

/** The event types in order, consecutive deltas of one kind counted once: redaction may re-split them. */
export const kinds = (events: Event[]) => events.map((event) => event.type).filter((type, index, all) => !((type === 'text' || type === 'reasoning') && all[index - 1] === type));

/** The concatenated `text` deltas between turn_start and turn_end of that turn (or the end of the run). */
export function turnText(events: Event[], turn: number): string {
  const start = events.findIndex((event) => event.type === 'turn_start' && event.turn === turn);
  const end = events.findIndex((event) => event.type === 'turn_end' && event.turn === turn);
  return events.slice(start, end < 0 ? undefined : end).filter((event) => event.type === 'text').map((event) => event.delta).join('');
}

/** A test directory with the scripted provider's script, its env (its own ZERO_HOME) and the flags that use them. */
export function scripted(t: Test, turns: unknown[], files: Record<string, string> = {}) {
  const dir = t.testdir(files);
  const script = writeScript(dir, turns, '.script.jsonl');
  const env = cleanEnv({ ZERO_HOME: join(dir, '.home') });
  const args = (...more: string[]) => ['-o', 'stream-json', '--provider', 'scripted', '--script', script, '-C', dir, ...more];
  return { dir, env, args };
}

/** Sends each message once the turn before it has ended, then closes stdin. */
export const oneAfterAnother = (messages: string[]) => ({
  start: (client: Client) => client.send(say(messages[0]!)),
  onEvent: (event: Event, client: Client) => {
    if (event.type !== 'turn_end') return;
    const next = messages[event.turn as number];
    if (next === undefined) client.end();
    else client.send(say(next));
  },
});

/**
 * A real `--multi-turn --permission-prompt stdio` session, recorded once by test/fixtures/conversation/record.mjs:
 * five user turns (a write allowed, a write denied with a reason, a build interrupted while it ran with a fourth
 * message queued behind it, which the interrupt cancelled, and a last question). Its session folder, id, events.
 */
export function recordedConversation() {
  const root = repoPath('test/fixtures/conversation/');
  const id = readdirSync(root).find((name) => name.startsWith('zero_'))!;
  const dir = join(root, id);
  const file = join(dir, 'events.jsonl');
  const text = readFileSync(file, 'utf8');
  return { dir, id, file, text, events: text.trimEnd().split('\n').map((line) => JSON.parse(line) as Event) };
}
