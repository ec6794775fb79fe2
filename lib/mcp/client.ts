import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ResultSchema, type CallToolResult, type Tool as ServerTool } from '@modelcontextprotocol/sdk/types.js';
import { ZeroError } from '../errors.js';
import { packageVersion } from '../package.js';
import { killProcessGroups, trackProcessGroups } from '../tools/process_group.js';
import type { McpServerSpec, StdioServer } from './config.js';

/** A server that could not start or answer: the run ends with it before the first model call (exit 3, as in Zero). */
export class McpError extends ZeroError {
  constructor(message: string) {
    super('mcp_error', message, 3, false);
  }
}

/** A started server: its tools, a way to call one, and its stop. */
export type McpConnection = {
  spec: McpServerSpec;
  tools: ServerTool[];
  call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult>;
  close(): Promise<void>;
};

export type StartOptions = {
  /** The clean environment of every child (lib/tools/child_env.ts); each server's own `env` goes over it. */
  env: Record<string, string>;
  cwd: string;
  /** For start-up: spawn, initialize and the tool list (--mcp-timeout). */
  timeoutMs: number;
  /** A line of a server's stderr, for the --debug log. */
  log(line: string): void;
  /** Aborted by a signal during the start: the servers are stopped, and its reason (a CancelledError) is thrown. */
  signal?: AbortSignal;
};

/** How long a stdio server has, after its stdin closed and SIGTERM, before its process group is killed. */
const STOP_GRACE_MS = 1000;
/** How much of a server's stderr is kept to say why it failed. */
const STDERR_TAIL = 1000;
/**
 * A stdio server leads a process group of its own, so that what it starts goes with it. The SDK spawns without
 * `detached`, so util-linux's setsid makes it one: a child that is not a group leader calls setsid() and execs in place.
 */
const SETSID = ['/usr/bin/setsid', '/bin/setsid'].find((path) => existsSync(path));
/**
 * util-linux's setpriv gives the server a parent-death signal before it execs (setsid, then the server): zero killed
 * with `kill -9` can end nothing itself, and a server that does not exit when its stdin closes ran on for good.
 */
let setpriv: string | null | undefined;
/** setpriv, if it is here and takes --pdeathsig (util-linux 2.33 and later; an older one refuses the option, and the server would not start). */
function setprivWithDeathSignal(): string | null {
  if (setpriv !== undefined) return setpriv;
  const path = ['/usr/bin/setpriv', '/bin/setpriv'].find((candidate) => existsSync(candidate));
  return (setpriv = path && spawnSync(path, ['--pdeathsig', 'KILL', '--', 'true'], { stdio: 'ignore', timeout: 5000 }).status === 0 ? path : null);
}

/** The argv that runs `spec` as a group leader of its own (setsid) that dies with zero (setpriv), as far as the host has them. */
function serverArgv(spec: StdioServer): [string, string[]] {
  const withDeathSignal = setprivWithDeathSignal();
  const argv = [...(withDeathSignal ? [withDeathSignal, '--pdeathsig', 'KILL', '--'] : []), ...(SETSID ? [SETSID] : []), spec.command, ...spec.args];
  return [argv[0]!, argv.slice(1)];
}

function stdioTransport(spec: StdioServer, options: StartOptions, stderrTail: { text: string }): StdioClientTransport {
  const [command, args] = serverArgv(spec);
  const transport = new StdioClientTransport({ command, args, env: { ...options.env, ...spec.env }, cwd: spec.cwd ?? options.cwd, stderr: 'pipe' });
  (transport.stderr as Readable | null)?.setEncoding('utf8').on('data', (chunk: string) => {
    stderrTail.text = (stderrTail.text + chunk).slice(-STDERR_TAIL);
    for (const line of chunk.split('\n').filter(Boolean)) options.log(`MCP server ${spec.name}: ${line}`);
  });
  return transport;
}

/** Why the server failed, with the end of what it printed on stderr (a crash's message is there). */
function failure(spec: McpServerSpec, error: unknown, stderr: string, timeoutMs: number): string {
  const message = error instanceof Error ? error.message : String(error);
  const why = /timed out|RequestTimeout|-32001/i.test(message) ? `it did not answer within ${timeoutMs / 1000} s (--mcp-timeout)` : message;
  const tail = stderr.trim().split('\n').slice(-3).join(' | ');
  return `MCP server "${spec.name}" could not start: ${why}${tail ? `; its stderr: ${tail}` : ''}.`;
}

/**
 * Every tool the server lists, page by page. The SDK's listTools refuses the whole list for one tool it finds
 * malformed (an input schema that is no object, say), which would stop the server: the list is read as any result,
 * a tool without a name left out, and its schema made fit by mcpTools (with a warning).
 */
async function listAllTools(client: Client, request: { timeout: number; signal?: AbortSignal }): Promise<ServerTool[]> {
  const tools: ServerTool[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = (await client.request({ method: 'tools/list', ...(cursor ? { params: { cursor } } : {}) }, ResultSchema, request)) as { tools?: unknown; nextCursor?: unknown };
    for (const tool of Array.isArray(page.tools) ? page.tools : []) {
      if (tool === null || typeof tool !== 'object' || typeof (tool as { name?: unknown }).name !== 'string') continue;
      const { description, title, annotations } = tool as Record<string, unknown>;
      tools.push({
        ...(tool as ServerTool),
        description: typeof description === 'string' ? description : undefined,
        title: typeof title === 'string' ? title : undefined,
        annotations: annotations !== null && typeof annotations === 'object' ? (annotations as ServerTool['annotations']) : undefined,
      });
    }
    const next = typeof page.nextCursor === 'string' && page.nextCursor ? page.nextCursor : undefined;
    // a cursor given before would list the same pages for ever
    cursor = next !== undefined && !seen.has(next) ? next : undefined;
    if (cursor) seen.add(cursor);
  } while (cursor);
  return tools;
}

/** Starts one server and lists its tools; a failure (spawn, initialize, timeout) is an McpError naming it, nothing left running. */
export async function connectServer(spec: McpServerSpec, options: StartOptions): Promise<McpConnection> {
  const stderr = { text: '' };
  const transport: Transport =
    spec.transport === 'stdio' ? stdioTransport(spec, options, stderr) : new StreamableHTTPClientTransport(new URL(spec.url), { requestInit: { headers: spec.headers } });
  const client = new Client({ name: 'zero-stream', version: packageVersion() });
  let untrack = () => {};
  let gone: string | undefined;
  // kept: the SDK forgets it once the server exits, and what the server started may still run in its group
  let pid: number | null = null;
  const stop = async () => {
    if (transport instanceof StreamableHTTPClientTransport) await withTimeout(transport.terminateSession(), STOP_GRACE_MS).catch(() => {});
    const closing = client.close().catch(() => {});
    if (pid) await killProcessGroups([pid], STOP_GRACE_MS).catch(() => {});
    await withTimeout(closing, STOP_GRACE_MS).catch(() => {});
    untrack();
  };
  try {
    const request = { timeout: options.timeoutMs, signal: options.signal };
    const connecting = client.connect(transport, request);
    // spawned by now (connect starts the transport before it sends initialize): one that hangs there is stopped too
    if (transport instanceof StdioClientTransport) pid = SETSID ? transport.pid : null;
    if (pid) untrack = trackProcessGroups([pid]);
    await connecting;
    // the SDK closes a stdio connection whose message passes its 10 MiB buffer: said so, not as a server that died
    let tooLong = false;
    client.onerror = (error) => void (tooLong ||= /ReadBuffer exceeded/.test(error.message));
    client.onclose = () =>
      void (gone ??= tooLong
        ? `MCP server "${spec.name}" is not running: it sent a message over 10 MiB, more than the MCP SDK reads from a stdio server, and its connection was closed.`
        : `MCP server "${spec.name}" is not running: its connection closed${stderr.text.trim() ? ` (its stderr: ${stderr.text.trim().split('\n').at(-1)})` : ''}.`);
    const tools = await listAllTools(client, request);
    return {
      spec,
      tools,
      async call(tool, args, signal) {
        if (gone) throw new Error(gone);
        try {
          const request = client.callTool({ name: tool, arguments: args }, undefined, { signal, timeout: spec.toolTimeoutMs });
          return (await settledBy(request, signal, spec.toolTimeoutMs)) as CallToolResult;
        } catch (error) {
          throw new Error(callFailure(spec, error, gone));
        }
      },
      close: stop,
    };
  } catch (error) {
    await stop();
    if (options.signal?.aborted) throw options.signal.reason;
    throw new McpError(failure(spec, error, stderr.text, options.timeoutMs));
  }
}

function callFailure(spec: McpServerSpec, error: unknown, gone: string | undefined): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/timed out|-32001/i.test(message)) return `MCP server "${spec.name}" did not answer within ${spec.toolTimeoutMs / 1000} s (its toolTimeoutSec).`;
  return gone ?? `MCP server "${spec.name}": ${message}`;
}

/**
 * The call's promise, rejected at once when `signal` aborts and soon after its timeout, whatever the SDK is doing:
 * under load an abort right after the call began once left the SDK's promise unsettled, and the run waiting on it.
 */
function settledBy<T>(promise: Promise<T>, signal: AbortSignal, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    const timer = setTimeout(() => reject(new Error('Request timed out')), timeoutMs + 1000);
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => {
      clearTimeout(timer);
      signal.removeEventListener('abort', abort);
    });
  });
}

/** The promise, or undefined once `ms` passed: a stop never waits on a server for long. */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  return Promise.race([promise, sleep(ms, undefined, { ref: false })]);
}

/**
 * Every server started at once. One that fails ends the run (the others are stopped first), unless it is
 * `optional`: then a warning says why, and the run goes on without it.
 */
export async function startServers(specs: McpServerSpec[], options: StartOptions): Promise<{ connections: McpConnection[]; warnings: string[] }> {
  const settled = await Promise.allSettled(specs.map((spec) => connectServer(spec, options)));
  const connections = settled.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  const warnings: string[] = [];
  for (const [index, outcome] of settled.entries()) {
    if (outcome.status === 'fulfilled') continue;
    const message = outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason);
    if (!specs[index]!.optional || options.signal?.aborted) {
      await Promise.all(connections.map((connection) => connection.close()));
      throw outcome.reason instanceof ZeroError ? outcome.reason : new McpError(message);
    }
    warnings.push(`${message} It is optional: the run goes on without its tools.`);
  }
  return { connections, warnings };
}
