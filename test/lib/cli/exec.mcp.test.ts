import t, { type Test } from 'tap';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { survivors, waitForFile } from '../../helpers/processes.js';
import { zeroHere } from '../../helpers/cli.js';
import { cleanEnv, eventTypes, jsonLines, nth, writeScript, zero } from '../../helpers/zero.js';
import { repoPath } from '../../helpers/repo.js';

// MCP servers in a run, end to end: real servers from npm and a fixture of our own; after every run, no server
// process is left. zero runs in this process, or as bin/zero where a process shows what is checked: signals, a
// reader that goes away, what a real process's environment hands its servers.

const FIXTURE = repoPath('test/fixtures/mcp/server.mjs');
const FILESYSTEM = repoPath('node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const EVERYTHING = repoPath('node_modules/@modelcontextprotocol/server-everything/dist/index.js');

type Run = { dir: string; pidFile: string; script: string };

/** A working directory with a scripted model, and a fixture server `fx` that records its pids in pidFile. */
function prepare(t: Test, turns: unknown[], servers: (run: Run) => Record<string, unknown> = fixture): Run & { config: string } {
  const dir = t.testdir({ 'notes.txt': 'a note\n' });
  const run = { dir, pidFile: join(dir, '.pids'), script: writeScript(dir, turns, '.script.jsonl') };
  writeFileSync(join(dir, '.mcp.json'), JSON.stringify({ mcpServers: servers(run) }));
  return { ...run, config: '.mcp.json' };
}

const fixture = (run: Run) => ({ fx: { command: process.execPath, args: [FIXTURE, 'tools'], env: { MCP_PID_FILE: run.pidFile } } });

/** zero exec over the run's directory: in this process, or spawned (bin/zero) when `spawned` or `onSpawn` is given. */
async function exec(run: Run & { config: string }, args: string[] = [], options: { env?: NodeJS.ProcessEnv; spawned?: boolean; onSpawn?: (child: ChildProcess) => void } = {}) {
  const argv = ['exec', '-o', 'stream-json', '--schema-version', '2', '--provider', 'scripted', '--script', run.script, '-C', run.dir, '--mcp-config', run.config, ...args, 'go'];
  const env = cleanEnv({ ZERO_HOME: join(run.dir, '.home'), ZERO_BWRAP: '/nonexistent/bwrap', ...options.env });
  const result = options.spawned || options.onSpawn ? await zero(argv, { env, onSpawn: options.onSpawn }) : await zeroHere(argv, { env });
  return { ...result, events: jsonLines(result.stdout) };
}

const pidsOf = (run: Run) => (existsSync(run.pidFile) ? readFileSync(run.pidFile, 'utf8').split('\n').filter((line) => /^\d+$/.test(line)).map(Number) : []);

/** The processes whose command line holds these arguments in a row (a server started for this test's directory). */
function processesRunning(...args: string[]): number[] {
  const wanted = args.join('\0');
  const commandLine = (pid: string) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      return ''; // gone meanwhile
    }
  };
  return readdirSync('/proc').filter((entry) => /^\d+$/.test(entry) && commandLine(entry).includes(wanted)).map(Number);
}

const call = (name: string, args: Record<string, unknown> = {}, id = 'm1') => ({ toolCalls: [{ id, name, args }] });

t.test('server-filesystem: list and read at --auto low; its write refused at low, allowed at high; no server left', async (t) => {
  const turns = [call('mcp_fs_list_directory', { path: '.' }, 'm1'), call('mcp_fs_read_text_file', { path: 'notes.txt' }, 'm2'), call('mcp_fs_write_file', { path: 'new.txt', content: 'written' }, 'm3'), { text: 'done' }];
  const servers = (run: Run) => ({ fs: { command: process.execPath, args: [FILESYSTEM, run.dir] } });
  const low = prepare(t, turns, servers);
  const result = await exec(low);
  t.equal(result.code, 0, result.stderr);
  const results = result.events.filter((event) => event.type === 'tool_result');
  t.match(results[0], { name: 'mcp_fs_list_directory', status: 'ok', output: /\[FILE\] notes\.txt/ });
  t.match(results[1], { name: 'mcp_fs_read_text_file', status: 'ok', output: 'a note\n' });
  t.match(nth(result.events, 'permission_request'), { name: 'mcp_fs_write_file', sideEffect: 'write' });
  t.match(results[2], { status: 'error', output: /^Permission required: mcp_fs_write_file may change things \(MCP server fs; not marked read-only\)/ });
  t.notOk(existsSync(join(low.dir, 'new.txt')));
  t.same(processesRunning(FILESYSTEM, low.dir), []);

  const high = prepare(t, turns, servers);
  const allowed = await exec(high, ['--auto', 'high']);
  t.equal(allowed.code, 0);
  t.match(allowed.events.filter((event) => event.type === 'tool_result')[2], { name: 'mcp_fs_write_file', status: 'ok' });
  t.equal(readFileSync(join(high.dir, 'new.txt'), 'utf8'), 'written');
  t.same(processesRunning(FILESYSTEM, high.dir), []);
});

t.test('a server that cannot start ends the run before the model is asked: mcp_error, exit 3; optional, a warning', async (t) => {
  const run = prepare(t, [{ text: 'never said' }], () => ({ db: { command: process.execPath, args: [FIXTURE, 'crash'] } }));
  const result = await exec(run);
  t.equal(result.code, 3);
  t.same(eventTypes(result.events), ['error', 'run_end']);
  t.match(nth(result.events, 'error'), { code: 'mcp_error', message: 'MCP server "db" could not start: MCP error -32000: Connection closed; its stderr: fixture: cannot open its database.' });

  const optional = prepare(t, [{ text: 'went on' }], (r) => ({ ...fixture(r), db: { command: process.execPath, args: [FIXTURE, 'crash'], optional: true } }));
  const goesOn = await exec(optional);
  t.equal(goesOn.code, 0);
  const warnings = goesOn.events.filter((event) => event.type === 'warning').map((event) => event.message);
  t.match(warnings.find((message) => /^MCP server/.test(String(message))), /^MCP server "db" could not start: .* It is optional: the run goes on without its tools\.$/);
  t.match(nth(goesOn.events, 'final'), { text: 'went on' });
  t.same(await survivors(pidsOf(optional)), []);
});

t.test('what a server prints is redacted like any output; it gets the clean environment plus its own env', async (t) => {
  const key = 'sk-proj-Zx81kQm2Lr7Tw4Yb9Nc3Vd6Hs0Jf5Gp1Ka8Me2Ux';
  const token = 'svc-0f9e8d7c6b5a49382716';
  const turns = [call('mcp_fx_secret', {}, 'm1'), call('mcp_fx_env', { name: 'SERVICE_TOKEN' }, 'm2'), call('mcp_fx_env', { name: 'DEPLOY_TOKEN' }, 'm3'), call('mcp_fx_env', { name: 'LANG' }, 'm4'), { text: 'done' }];
  const run = prepare(t, turns, (r) => ({ fx: { command: process.execPath, args: [FIXTURE, 'tools'], env: { MCP_PID_FILE: r.pidFile, SERVICE_TOKEN: token } } }));
  const result = await exec(run, [], { env: { DEPLOY_TOKEN: 'dpl-1234567890abcdef', LANG: 'C.UTF-8' }, spawned: true });
  t.equal(result.code, 0);
  t.notMatch(result.stdout, key.slice(8));
  t.notMatch(result.stdout, token);
  const outputs = result.events.filter((event) => event.type === 'tool_result').map((event) => event.output);
  t.match(outputs[0], /^the key is \S*REDACTED/);
  t.match(outputs[1], /^SERVICE_TOKEN=\S*REDACTED/, "the server's own env reaches it, and is a secret from then on");
  t.equal(outputs[2], 'DEPLOY_TOKEN=(unset)', "zero's credentials never reach a server");
  t.equal(outputs[3], 'LANG=C.UTF-8');
  t.same(await survivors(pidsOf(run)), []);
});

t.test('an error result, and a server that dies mid-call: error tool_results, the run goes on', async (t) => {
  const turns = [call('mcp_fx_fail', {}, 'm1'), call('mcp_fx_die', {}, 'm2'), call('mcp_fx_echo', { text: 'hi' }, 'm3'), { text: 'carried on' }];
  const run = prepare(t, turns);
  const result = await exec(run);
  t.equal(result.code, 0);
  const results = result.events.filter((event) => event.type === 'tool_result');
  t.match(results[0], { status: 'error', output: 'the row is locked' });
  t.match(results[1], { status: 'error', output: /^MCP server "fx"/ });
  t.match(results[2], { status: 'error', output: /^MCP server "fx" is not running: its connection closed/ });
  t.match(nth(result.events, 'final'), { text: 'carried on' });
  t.same(await survivors(pidsOf(run)), []);
});

t.test('a run that ends in error (the turn limit) stops its servers too', async (t) => {
  const run = prepare(t, [call('mcp_fx_echo', { text: 'one' }, 'm1'), call('mcp_fx_echo', { text: 'two' }, 'm2'), { text: 'late answer' }]);
  const result = await exec(run, ['--max-turns', '1']);
  t.equal(result.code, 4);
  t.match(result.events.at(-1), { type: 'run_end', exitCode: 4 });
  t.equal(pidsOf(run).length, 2);
  t.same(await survivors(pidsOf(run)), []);
});

t.test('SIGINT during a slow MCP call: the run ends cancelled (130), the server and its child gone', async (t) => {
  const run = prepare(t, [call('mcp_fx_slow'), { text: 'never' }]);
  const result = await exec(run, [], { onSpawn: (child) => void waitFor(run.pidFile, 'slow').then(() => child.kill('SIGINT')) });
  t.equal(result.code, 130);
  t.match(nth(result.events, 'tool_result'), { status: 'error' });
  t.match(result.events.at(-1), { type: 'run_end', exitCode: 130 });
  t.same(await survivors(pidsOf(run)), []);
});

t.test('SIGINT while a server hangs in initialize: cancelled at once (130), not after --mcp-timeout; the server gone', async (t) => {
  const run = prepare(t, [{ text: 'never' }], (r) => ({ mute: { command: process.execPath, args: [FIXTURE, 'hang'], env: { MCP_PID_FILE: r.pidFile } } }));
  const started = Date.now();
  const result = await exec(run, ['--mcp-timeout', '60'], { onSpawn: (child) => void waitForFile(run.pidFile).then(() => child.kill('SIGINT')) });
  t.equal(result.code, 130);
  t.ok(Date.now() - started < 30_000);
  t.same(eventTypes(result.events), ['error', 'run_end']);
  t.same(await survivors(pidsOf(run)), []);
});

t.test('the reader of stdout goes away during a slow MCP call: exit 141, no server left', async (t) => {
  const chunks = Array.from({ length: 24 }, () => 'x'.repeat(64 * 1024));
  const run = prepare(t, [{ chunks, ...call('mcp_fx_slow') }, { text: 'never' }]);
  const result = await exec(run, [], {
    onSpawn: (child) => {
      child.stdout?.pause();
      void waitFor(run.pidFile, 'slow').then(() => child.stdout?.destroy());
    },
  });
  t.equal(result.code, 141);
  t.same(await survivors(pidsOf(run)), []);
});

async function waitFor(file: string, line: string): Promise<void> {
  await waitForFile(file);
  while (!readFileSync(file, 'utf8').split('\n').includes(line)) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** server-everything in its streamable HTTP mode, on a free port of 127.0.0.1; stopped at the end of the test. */
async function everythingOverHttp(t: Test): Promise<string> {
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  const server = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  t.teardown(() => void server.kill('SIGKILL'));
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    server.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk).includes('listening') && resolve());
    server.once('exit', () => reject(new Error(`server-everything exited: ${stderr}`)));
  });
  return `http://127.0.0.1:${port}/mcp`;
}

t.test('server-everything over streamable HTTP: its tools per server, text, an image in words, a server error, a refused argument', async (t) => {
  const url = await everythingOverHttp(t);
  const turns = [
    call('mcp_everything_echo', { message: 'over http' }, 'm1'),
    call('mcp_everything_get_tiny_image', {}, 'm2'),
    call('mcp_everything_get_resource_reference', { resourceType: 'Text', resourceId: 0 }, 'm3'),
    call('mcp_everything_get_sum', { a: 'one', b: 2 }, 'm4'),
    { text: 'done' },
  ];
  const run = prepare(t, turns, () => ({ everything: { type: 'http', url } }));
  const listing = await zeroHere(['exec', '--list-tools', '-o', 'json', '-C', run.dir, '--mcp-config', run.config], { env: cleanEnv({ ZERO_BWRAP: '/nonexistent/bwrap' }) });
  t.equal(listing.code, 0, listing.stderr);
  const echo = jsonLines(listing.stdout).find((line) => line.name === 'mcp_everything_echo');
  t.same(echo, { type: 'tool', name: 'mcp_everything_echo', side_effect: 'read', permission: 'allow', advertised: true, reason: 'only reads: always allowed', server: 'everything' });

  const result = await exec(run);
  t.equal(result.code, 0, result.stderr);
  const results = result.events.filter((event) => event.type === 'tool_result');
  t.match(results[0], { status: 'ok', output: 'Echo: over http' });
  t.match(results[1], { status: 'ok', output: /\[image: image\/png, [\d.]+ (bytes|KB), not shown\]/ });
  t.match(results[2], { status: 'error', output: /Invalid resourceId: 0/ });
  t.match(results[3], { status: 'error', output: /^Invalid arguments for mcp_everything_get_sum: a: / });
});

t.test("sessions record MCP calls like any other; --resume starts the config file's servers again", async (t) => {
  const dir = t.testdir({ xdg: { zero: {} } });
  const pidFile = join(dir, 'pids');
  writeFileSync(join(dir, 'xdg/zero/config.json'), JSON.stringify({ mcpServers: { fx: { command: process.execPath, args: [FIXTURE, 'tools'], env: { MCP_PID_FILE: pidFile } } } }));
  const env = cleanEnv({ ZERO_HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'xdg'), ZERO_BWRAP: '/nonexistent/bwrap' });
  const runWith = async (turns: unknown[], args: string[]) => {
    const script = writeScript(dir, turns, `script-${args.length}.jsonl`);
    const result = await zeroHere(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, '-C', dir, ...args], { env });
    return { ...result, events: jsonLines(result.stdout) };
  };
  const first = await runWith([call('mcp_fx_echo', { text: 'first answer' }), { text: 'Echoed.' }], ['Echo something']);
  t.equal(first.code, 0, first.stderr);
  const resumed = await runWith([{ expect: { contains: ['mcp_fx_echo', 'first answer'] }, ...call('mcp_fx_echo', { text: 'again' }, 'm2') }, { text: 'Again.' }], ['--resume', 'Once more']);
  t.equal(resumed.code, 0, resumed.stderr);
  t.match(nth(resumed.events, 'tool_result'), { status: 'ok', output: 'again' });
  t.equal(pidsOf({ pidFile } as Run).length, 4, 'a server (and its child) for each run');
  t.same(await survivors(pidsOf({ pidFile } as Run)), []);
});
