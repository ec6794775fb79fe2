import t from 'tap';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { connectServer, startServers, type McpConnection } from '../../../lib/mcp/client.js';
import type { McpServerSpec } from '../../../lib/mcp/config.js';
import { survivors, waitForFile } from '../../helpers/processes.js';
import { repoPath } from '../../helpers/repo.js';

// Servers started with the SDK, against real server processes: npm's server-filesystem and a fixture of our own.

const FIXTURE = repoPath('test/fixtures/mcp/server.mjs');
const FILESYSTEM = repoPath('node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const options = { env: { PATH: process.env.PATH ?? '' }, cwd: process.cwd(), timeoutMs: 10_000, log: () => {} };

function stdio(name: string, args: string[], extra: Partial<McpServerSpec> = {}): McpServerSpec {
  return { name, transport: 'stdio', command: process.execPath, args, env: {}, optional: false, toolTimeoutMs: 10_000, origin: { scope: 'flag', file: 'test' }, ...extra } as McpServerSpec;
}

const pidsOf = (file: string) => readFileSync(file, 'utf8').split('\n').filter((line) => /^\d+$/.test(line)).map(Number);
const text = (result: Awaited<ReturnType<McpConnection['call']>>) => result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');

t.test('server-filesystem: its tools are listed, a call reads the directory, and its stop leaves nothing', async (t) => {
  const dir = t.testdir({ 'notes.txt': 'a note\n' });
  const server = await connectServer(stdio('fs', [FILESYSTEM, dir]), options);
  t.teardown(() => server.close());
  const names = server.tools.map((tool) => tool.name);
  t.ok(names.includes('read_text_file') && names.includes('write_file'), names.join(', '));
  t.match(text(await server.call('list_directory', { path: dir }, new AbortController().signal)), /\[FILE\] notes\.txt/);
  t.equal(text(await server.call('read_text_file', { path: join(dir, 'notes.txt') }, AbortSignal.timeout(10_000))), 'a note\n');
});

t.test('a server that exits at start: an mcp_error naming it, with what it printed', async (t) => {
  await t.rejects(connectServer(stdio('db', [FIXTURE, 'crash']), options), { code: 'mcp_error', exitCode: 3, message: /^MCP server "db" could not start: .*; its stderr: fixture: cannot open its database\.$/ });
});

t.test('a command that does not exist: an mcp_error that says so', async (t) => {
  await t.rejects(connectServer(stdio('gone', [], { command: '/nonexistent/mcp-server' } as Partial<McpServerSpec>), options), { code: 'mcp_error', message: /^MCP server "gone" could not start: .*(No such file|ENOENT)/ });
});

t.test('a server that never answers initialize: stopped after the start-up timeout, its process gone', async (t) => {
  const pidFile = join(t.testdir(), 'pids');
  const started = Date.now();
  await t.rejects(connectServer(stdio('mute', [FIXTURE, 'hang'], { env: { MCP_PID_FILE: pidFile } }), { ...options, timeoutMs: 1000 }), { code: 'mcp_error', message: 'MCP server "mute" could not start: it did not answer within 1 s (--mcp-timeout).' });
  t.ok(Date.now() - started < 5000);
  t.same(await survivors(pidsOf(pidFile)), []);
});

t.test('zero killed with kill -9: a stdio server that would run on (a child keeps it alive) dies with it', { skip: !['/usr/bin/setpriv', '/bin/setpriv'].some(existsSync) && 'needs util-linux setpriv' }, async (t) => {
  const dir = t.testdir({});
  const pidFile = join(dir, 'pids');
  const parent = join(dir, 'parent.mjs');
  // a program that starts the server as zero does, says so, and waits to be killed
  writeFileSync(parent, [
    `import { connectServer } from ${JSON.stringify(pathToFileURL(repoPath('dist/lib/mcp/client.js')).href)};`,
    `await connectServer(${JSON.stringify(stdio('fx', [FIXTURE, 'tools'], { env: { MCP_PID_FILE: pidFile } }))}, { env: { PATH: process.env.PATH }, cwd: process.cwd(), timeoutMs: 10000, log: () => {} });`,
    `console.log('ready');`,
    'setInterval(() => {}, 1000);',
  ].join('\n'));
  const child = spawn(process.execPath, [parent], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve) => child.stdout.on('data', (chunk: Buffer) => chunk.includes('ready') && resolve()));
  const [server, leftChild] = pidsOf(pidFile);
  t.teardown(() => void [server, leftChild].forEach((pid) => { try { process.kill(pid!, 'SIGKILL'); } catch {} }));
  child.kill('SIGKILL');
  t.same(await survivors([server!]), [], 'the server got the parent-death signal');
});

t.test('close kills the whole process group: the server and what it started', async (t) => {
  const pidFile = join(t.testdir(), 'pids');
  const server = await connectServer(stdio('fx', [FIXTURE, 'tools'], { env: { MCP_PID_FILE: pidFile } }), options);
  const pids = pidsOf(pidFile);
  t.equal(pids.length, 2);
  await server.close();
  t.same(await survivors(pids), []);
});

t.test('a server that dies in a call: that call and the next fail with a reason, nothing is left', async (t) => {
  const pidFile = join(t.testdir(), 'pids');
  const server = await connectServer(stdio('fx', [FIXTURE, 'tools'], { env: { MCP_PID_FILE: pidFile } }), options);
  t.teardown(() => server.close());
  await t.rejects(server.call('die', {}, new AbortController().signal), { message: /^MCP server "fx"/ });
  await t.rejects(server.call('echo', { text: 'hi' }, new AbortController().signal), { message: /^MCP server "fx" is not running: its connection closed/ });
  await server.close();
  // the server is gone; the child it left behind goes with its group
  t.same(await survivors(pidsOf(pidFile)), []);
});

t.test("a call longer than the server's tool timeout fails with the timeout; an abort stops it at once", async (t) => {
  const pidFile = join(t.testdir(), 'pids');
  const server = await connectServer(stdio('fx', [FIXTURE, 'tools'], { env: { MCP_PID_FILE: pidFile }, toolTimeoutMs: 300 }), options);
  t.teardown(() => server.close());
  await t.rejects(server.call('slow', {}, new AbortController().signal), { message: 'MCP server "fx" did not answer within 0.3 s (its toolTimeoutSec).' });
  const abort = new AbortController();
  const call = server.call('slow', {}, abort.signal);
  await waitForFile(pidFile);
  abort.abort();
  await t.rejects(call);
});

t.test('startServers: an optional server that fails is a warning; a required one ends the start, the others stopped', async (t) => {
  const pidFile = join(t.testdir(), 'pids');
  const good = stdio('good', [FIXTURE, 'tools'], { env: { MCP_PID_FILE: pidFile } });
  const { connections, warnings } = await startServers([good, stdio('extra', [FIXTURE, 'crash'], { optional: true })], options);
  t.teardown(() => Promise.all(connections.map((connection) => connection.close())));
  t.same(connections.map((connection) => connection.spec.name), ['good']);
  t.match(warnings, [/^MCP server "extra" could not start: .* It is optional: the run goes on without its tools\.$/]);

  const otherPids = join(t.testdir(), 'other');
  await t.rejects(startServers([stdio('other', [FIXTURE, 'tools'], { env: { MCP_PID_FILE: otherPids } }), stdio('db', [FIXTURE, 'crash'])], options), { code: 'mcp_error', message: /^MCP server "db"/ });
  t.same(await survivors(pidsOf(otherPids)), []);
});

t.test('an HTTP server that cannot be reached: an mcp_error naming it', async (t) => {
  const spec = { name: 'remote', transport: 'http', url: 'http://127.0.0.1:9/mcp', headers: {}, optional: false, toolTimeoutMs: 1000, origin: { scope: 'flag', file: 'test' } } as McpServerSpec;
  await t.rejects(connectServer(spec, options), { code: 'mcp_error', message: /^MCP server "remote" could not start: .*(fetch failed|ECONNREFUSED)/ });
});

t.test("a signal during the start: the servers stopped, the signal's error thrown", async (t) => {
  const pidFile = join(t.testdir(), 'pids');
  const abort = new AbortController();
  const starting = startServers([stdio('mute', [FIXTURE, 'hang'], { env: { MCP_PID_FILE: pidFile } })], { ...options, signal: abort.signal });
  await waitForFile(pidFile);
  const cancelled = new Error('Cancelled by SIGINT.');
  abort.abort(cancelled);
  await t.rejects(starting, cancelled);
  t.same(await survivors(pidsOf(pidFile)), []);
});

t.test('a server that lists tools of odd shapes starts: one without a name is left out, the others kept for mcpTools to fit', async (t) => {
  const server = await connectServer(stdio('odd', [FIXTURE, 'odd']), options);
  t.teardown(() => server.close());
  const names = server.tools.map((tool) => tool.name);
  t.ok(names.includes('echo') && names.includes('schemaless') && names.includes('stringly'), names.join(', '));
  t.equal(names.length, 10, 'the 7 tools and the 3 odd ones with a name; the nameless one left out');
});

t.test('a stdio message past the SDK\'s 10 MiB buffer: the call fails saying so, and so does the next (the connection is closed)', async (t) => {
  const server = await connectServer(stdio('big', [FIXTURE, 'tools']), options);
  t.teardown(() => server.close());
  const message = 'MCP server "big" is not running: it sent a message over 10 MiB, more than the MCP SDK reads from a stdio server, and its connection was closed.';
  await t.rejects(server.call('huge', {}, AbortSignal.timeout(20_000)), { message: new RegExp(message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) });
  await t.rejects(server.call('echo', { text: 'hi' }, AbortSignal.timeout(5_000)), { message });
});
