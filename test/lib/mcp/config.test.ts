import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_TOOL_TIMEOUT_MS, selectServers, serverSecrets, serverSpec } from '../../../lib/mcp/config.js';
import type { ConfigLayer } from '../../../lib/providers/config-files.js';

// Which servers a run starts, from Zero's three config keys, the user's and the project's file, and --mcp-config.

const user = (document: Record<string, unknown>): ConfigLayer => ({ scope: 'user', file: '/home/me/.config/zero/config.json', document });
const project = (document: Record<string, unknown>): ConfigLayer => ({ scope: 'project', file: '/repo/.zero/config.json', document });
const names = (selection: { servers: { name: string }[] }) => selection.servers.map((server) => server.name);
const low = { cwd: '/repo', trustProject: false };

t.test("Zero's three keys, read in any case; disabled servers left out", async (t) => {
  const selection = await selectServers(
    [user({ mcpServers: { a: { command: 'a' } }, MCP_SERVERS: { b: { command: 'b' } }, mcp: { Servers: { c: { command: 'c' }, d: { command: 'd', disabled: true } } } })],
    [],
    low,
  );
  t.same(names(selection).sort(), ['a', 'b', 'c']);
  t.same(selection.warnings, []);
});

t.test('the same name under two keys of one file is an error, as in Zero', async (t) => {
  await t.rejects(selectServers([user({ mcpServers: { a: { command: 'a' } }, mcp_servers: { a: { command: 'b' } } })], [], low), {
    code: 'provider_error',
    message: 'Invalid config file /home/me/.config/zero/config.json: MCP server "a" is defined in both mcpServers and mcp_servers.',
  });
});

t.test("a project file's server starts only at --auto medium or higher, or when the user's file names it too", async (t) => {
  const repo = project({ mcpServers: { evil: { command: 'curl' }, shared: { command: 'project-version' } } });
  const mine = user({ mcpServers: { shared: { command: 'my-version' } } });
  const atLow = await selectServers([mine, repo], [], low);
  t.same(names(atLow), ['shared']);
  t.match(atLow.servers[0], { command: 'my-version', origin: { scope: 'user' } });
  t.same(atLow.warnings, [
    'MCP server "evil" of /repo/.zero/config.json is not started: a project\'s config file starts programs only with --auto medium or higher, or when your own config file or --mcp-config names the server too.',
  ]);
  const atMedium = await selectServers([mine, repo], [], { ...low, trustProject: true });
  t.same(names(atMedium).sort(), ['evil', 'shared']);
  t.match(atMedium.servers.find((server) => server.name === 'shared'), { command: 'my-version' });
});

t.test("--mcp-config: Claude Code's shape, over the config files; a missing file is a usage error", async (t) => {
  const dir = t.testdir();
  writeFileSync(join(dir, 'mcp.json'), JSON.stringify({ mcpServers: { shared: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer abcdefgh12345678' } } } }));
  const selection = await selectServers([user({ mcpServers: { shared: { command: 'mine' } } })], ['mcp.json'], { cwd: dir, trustProject: false });
  t.same(selection.servers, [
    { name: 'shared', origin: { scope: 'flag', file: join(dir, 'mcp.json') }, optional: false, toolTimeoutMs: DEFAULT_TOOL_TIMEOUT_MS, transport: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer abcdefgh12345678' } },
  ]);
  t.same(serverSecrets(selection.servers), ['Bearer abcdefgh12345678', 'abcdefgh12345678']);
  await t.rejects(selectServers([], ['absent.json'], { cwd: dir, trustProject: false }), { code: 'usage_error', message: '--mcp-config absent.json: no such file.' });
  writeFileSync(join(dir, 'bad.json'), '{"mcpServers": ');
  await t.rejects(selectServers([], ['bad.json'], { cwd: dir, trustProject: false }), { code: 'usage_error', message: /^--mcp-config bad\.json: not valid JSON/ });
});

t.test('one entry: stdio or http, checked field by field', async (t) => {
  const origin = { scope: 'user' as const, file: 'config.json' };
  t.same(serverSpec('git', { command: ' mcp-git ', args: ['--repo', '.'], env: { GITHUB_TOKEN: 'ghp_0123456789abcdef', LANG: 'C.UTF-8 long value' }, cwd: 'sub', optional: true, tool_timeout_sec: 5 }, origin, '/repo'), {
    name: 'git',
    origin,
    optional: true,
    toolTimeoutMs: 5000,
    transport: 'stdio',
    command: 'mcp-git',
    args: ['--repo', '.'],
    env: { GITHUB_TOKEN: 'ghp_0123456789abcdef', LANG: 'C.UTF-8 long value' },
    cwd: '/repo/sub',
  });
  t.same(serverSecrets([serverSpec('git', { command: 'x', env: { GITHUB_TOKEN: 'ghp_0123456789abcdef', LANG: 'C.UTF-8 long value' } }, origin, '/')!]), ['ghp_0123456789abcdef'], 'only the values of variables named like credentials');
  t.match(serverSpec('web', { url: 'https://example.com/mcp' }, origin, '/'), { transport: 'http' });
  const problems: [string, unknown, RegExp][] = [
    ['a b', { command: 'x' }, /invalid MCP server name "a b"/],
    ['x', 'npx server', /MCP server "x" must be an object/],
    ['x', {}, /MCP server "x": command is missing/],
    ['x', { type: 'sse', url: 'http://h/sse' }, /type "sse" is not supported/],
    ['x', { type: 'http', url: 'ftp://h' }, /url must be an http or https URL/],
    ['x', { command: 'x', args: 'a b' }, /args must be an array of strings/],
    ['x', { command: 'x', env: { A: 1 } }, /env must be an object of strings/],
    ['x', { command: 'x', toolTimeoutSec: 0 }, /toolTimeoutSec must be a positive number/],
    ['x', { url: 'http://h', command: 'x' }, /command is only for stdio servers/],
  ];
  for (const [name, entry, message] of problems) t.throws(() => serverSpec(name, entry, origin, '/'), { code: 'provider_error', message }, JSON.stringify(entry));
});

t.test('a server that signs in with OAuth (as Zero writes it: auth "oauth") is left out with a warning that says why, the others start', async (t) => {
  const selection = await selectServers(
    [user({ mcp: { servers: { remote: { type: 'http', url: 'https://mcp.example.com/mcp', auth: 'oauth', oauth: { clientID: 'zero' } }, local: { command: 'a' } } } })],
    [],
    low,
  );
  t.same(names(selection), ['local']);
  t.match(selection.warnings, [/^MCP server "remote" of \/home\/me\/\.config\/zero\/config\.json is not started: it signs in with OAuth \(auth: "oauth"\), which zero-stream does not support\./]);
});
