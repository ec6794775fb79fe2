import t from 'tap';
import type { McpConnection } from '../../../lib/mcp/client.js';
import { mcpToolName, mcpTools, parametersOf, sideEffectOf } from '../../../lib/mcp/tools.js';
import { createToolbox } from '../../../lib/tools/registry.js';

// A server's tools as zero tools: Zero's names, the effect the annotations claim, a schema the provider takes.

t.test("names: mcp_<server>_<tool>, lower case, other characters to _ (Zero's rule)", async (t) => {
  t.equal(mcpToolName('fs', 'read_file'), 'mcp_fs_read_file');
  t.equal(mcpToolName('My-Server', 'Get Issue!'), 'mcp_my_server_get_issue');
  t.equal(mcpToolName('gh.com', '--'), 'mcp_gh_com_tool');
});

t.test('side effects: only readOnlyHint makes a read; openWorldHint a network tool; else a write', async (t) => {
  const tool = (annotations?: Record<string, boolean>) => ({ name: 't', inputSchema: { type: 'object' as const }, annotations });
  t.equal(sideEffectOf(tool({ readOnlyHint: true, openWorldHint: true })), 'read');
  t.equal(sideEffectOf(tool({ openWorldHint: true })), 'network');
  t.equal(sideEffectOf(tool({ destructiveHint: false })), 'write');
  t.equal(sideEffectOf(tool()), 'write');
});

t.test('schemas: $schema and $id dropped; one the provider cannot take is simplified, with a warning', async (t) => {
  const good = { $schema: 'https://json-schema.org/draft/2020-12/schema', $id: 'urn:x', type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
  t.same(parametersOf('mcp_a_b', good), { parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } });
  const union = { type: 'object', properties: { id: { type: 'string' } }, oneOf: [{ required: ['id'] }, { required: ['name'] }] };
  t.same(parametersOf('mcp_a_b', union), {
    parameters: { type: 'object', properties: { id: { type: 'string' } } },
    warning: 'MCP tool mcp_a_b: its input schema was simplified to its top-level properties, since its top level has oneOf; the server checks the arguments itself.',
  });
  t.match(parametersOf('mcp_a_b', { type: 'object', properties: { n: { type: 'nonsense' } } }), { parameters: { type: 'object' }, warning: /simplified to any object, since it does not compile/ });
  t.match(parametersOf('mcp_a_b', undefined), { parameters: { type: 'object' }, warning: /top level is not `type: "object"`/ });
});

t.test('mcpTools: tools a toolbox runs, errors as error results; a name taken twice keeps the first', async (t) => {
  const calls: unknown[] = [];
  const connection = {
    spec: { name: 'db' },
    tools: [
      { name: 'query', description: 'Runs a query.', inputSchema: { type: 'object', properties: { sql: { type: 'string' } }, required: ['sql'] }, annotations: { readOnlyHint: true } },
      { name: 'Query', inputSchema: { type: 'object' } },
      { name: 'drop', inputSchema: { type: 'object' } },
    ],
    async call(tool: string, args: Record<string, unknown>) {
      calls.push([tool, args]);
      return tool === 'drop' ? { content: [{ type: 'text', text: 'permission denied for table' }], isError: true } : { content: [{ type: 'text', text: 'one row' }] };
    },
    close: async () => {},
  } as unknown as McpConnection;
  const { tools, warnings } = mcpTools([connection], ['read_file']);
  t.same(tools.map(({ name, sideEffect, permission, server }) => ({ name, sideEffect, permission, server })), [
    { name: 'mcp_db_query', sideEffect: 'read', permission: 'allow', server: 'db' },
    { name: 'mcp_db_drop', sideEffect: 'write', permission: 'prompt', server: 'db' },
  ]);
  t.same(warnings, ['MCP tool "Query" of server "db" is left out: another tool is already named mcp_db_query.']);
  const toolbox = createToolbox(tools);
  const context = { cwd: '/', signal: new AbortController().signal };
  t.same(await toolbox.run({ id: '1', name: 'mcp_db_query', args: { sql: 'select 1' } }, context), { status: 'ok', output: 'one row', truncated: false });
  t.match(await toolbox.run({ id: '2', name: 'mcp_db_query', args: {} }, context), { status: 'error', output: /^Invalid arguments for mcp_db_query: .*sql/ });
  t.same(await toolbox.run({ id: '3', name: 'mcp_db_drop', args: {} }, context), { status: 'error', output: 'permission denied for table', truncated: false });
  t.same(calls, [['query', { sql: 'select 1' }], ['drop', {}]], 'arguments the schema refuses never reach the server');
});

t.test("a server's long output is capped like every tool's", async (t) => {
  const connection = {
    spec: { name: 'big' },
    tools: [{ name: 'dump', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }],
    call: async () => ({ content: [{ type: 'text', text: 'x'.repeat(200 * 1024) }] }),
    close: async () => {},
  } as unknown as McpConnection;
  const outcome = await createToolbox(mcpTools([connection], []).tools).run({ id: '1', name: 'mcp_big_dump', args: {} }, { cwd: '/', signal: new AbortController().signal });
  t.match(outcome, { status: 'ok', truncated: true });
  t.equal(outcome.output.length, 64 * 1024);
});

t.test('a tool name past 64 characters (the providers\' limit) is cut and ended with a hash of the whole: two long names stay two', async (t) => {
  const a = mcpToolName('server', `long_${'x'.repeat(200)}_a`);
  const b = mcpToolName('server', `long_${'x'.repeat(200)}_b`);
  t.equal(a.length, 64);
  t.match(a, /^mcp_server_long_x+_[0-9a-f]{8}$/);
  t.not(a, b);
  t.equal(mcpToolName('s', 'short'), 'mcp_s_short', 'a short one as before');
});
