import t from 'tap';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startMcp } from '../../../lib/cli/mcp-setup.js';
import { allTools } from '../../../lib/tools/registry.js';
import { survivors } from '../../helpers/processes.js';
import { ZERO, cleanEnv, writeScript } from '../../helpers/zero.js';
import { repoPath } from '../../helpers/repo.js';

// The run's MCP servers: started only when some are configured, and only then is the MCP client loaded.

const FIXTURE = repoPath('test/fixtures/mcp/server.mjs');
const HOOK = pathToFileURL(repoPath('test/helpers/load-hook.mjs')).href;
const REGISTER = `data:text/javascript,import{register}from'node:module';register(${JSON.stringify(HOOK)})`;

function loadedBy(args: string[]): Promise<{ modules: string[]; code: number | null }> {
  const child = spawn(process.execPath, ['--import', REGISTER, ZERO, ...args], { env: cleanEnv({ ZERO_BWRAP: '/nonexistent/bwrap' }), stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ modules: [...stderr.matchAll(/^\[loaded\] (.*)$/gm)].map((match) => match[1]!), code })));
}

const mcpModules = (modules: string[]) => modules.filter((url) => url.includes('@modelcontextprotocol') || url.includes('/lib/mcp/client.js'));

t.test('a run without MCP servers loads neither the SDK nor the client; one with a server does', async (t) => {
  const dir = t.testdir();
  const script = writeScript(dir, [{ text: 'hi' }]);
  const plain = await loadedBy(['exec', '--no-session', '--provider', 'scripted', '--script', script, '-C', dir, 'go']);
  t.equal(plain.code, 0);
  t.same(mcpModules(plain.modules), []);

  writeFileSync(join(dir, 'mcp.json'), JSON.stringify({ mcpServers: { fx: { command: process.execPath, args: [FIXTURE, 'tools'] } } }));
  const withServer = await loadedBy(['exec', '--no-session', '--provider', 'scripted', '--script', script, '-C', dir, '--mcp-config', 'mcp.json', 'go']);
  t.equal(withServer.code, 0);
  t.ok(mcpModules(withServer.modules).some((url) => url.includes('/lib/mcp/client.js')));
});

t.test("startMcp: the project's server waits for --auto medium; the definitions' secrets are known before the start", async (t) => {
  const dir = t.testdir();
  const pidFile = join(dir, 'pids');
  const layers = [{ scope: 'project' as const, file: join(dir, '.zero/config.json'), document: { mcpServers: { fx: { command: process.execPath, args: [FIXTURE, 'tools'], env: { MCP_PID_FILE: pidFile, API_TOKEN: 'tok-0123456789abcdef' } } } } }];
  const child = { env: { PATH: process.env.PATH ?? '' }, secrets: [] as string[], log: () => {} };
  const atLow = await startMcp({}, { cwd: dir, permissions: {} }, { layers }, child, allTools);
  t.same(atLow.tools, []);
  t.match(atLow.warnings, [/^MCP server "fx" of .* is not started/]);
  t.same(child.secrets, []);

  const atMedium = await startMcp({ mcpTimeout: '20' }, { cwd: dir, permissions: { auto: 'medium' } }, { layers }, child, allTools);
  t.teardown(atMedium.close);
  t.ok(atMedium.tools.some((tool) => tool.name === 'mcp_fx_echo'));
  t.same(child.secrets, ['tok-0123456789abcdef']);
  await atMedium.close();
  t.same(await survivors(readFileSync(pidFile, 'utf8').split('\n').filter(Boolean).map(Number)), []);
});

t.test('--mcp-timeout must be a positive number of seconds', async (t) => {
  await t.rejects(startMcp({ mcpTimeout: '0' }, { cwd: '/', permissions: {} }, { layers: [] }, { env: {}, secrets: [], log: () => {} }, allTools), { code: 'usage_error', message: /^Invalid value for --mcp-timeout: "0"/ });
});
