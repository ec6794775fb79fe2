import t from 'tap';
import { isProtectedPath, parseToolNames, planTools, protectedWriteReason, UNSAFE_WARNING } from '../../../lib/tools/permissions.js';
import { allTools, type AnyTool } from '../../../lib/tools/registry.js';

const names = (plan: ReturnType<typeof planTools>) => plan.advertised.map((tool) => tool.name);
const readOnly = ['read_file', 'list_directory', 'glob', 'grep'];
const everything = [...readOnly, 'write_file', 'edit_file', 'apply_patch', 'bash'];

const sandboxed = { sandbox: 'workspace-write' as const, network: false };
const writes = ['write_file', 'edit_file', 'apply_patch'];

t.test('--auto low (the default) and medium: reads, writes and the sandboxed shell, each write and command auto-allowed', async (t) => {
  for (const auto of [undefined, 'low', 'medium'] as const) {
    const plan = planTools(allTools, { auto, shell: sandboxed });
    t.same(names(plan), everything, String(auto));
    t.same(plan.warnings, []);
    t.equal(plan.refusals.size, 0);
    t.equal(plan.permissionMode, 'auto');
    const level = auto ?? 'low';
    for (const name of writes) t.equal(plan.autoAllowed.get(name), `Auto-allowed at --auto ${level}: a write inside the working directory and the --add-dir directories.`);
    t.equal(plan.autoAllowed.get('bash'), `Auto-allowed at --auto ${level}: sandboxed shell (workspace-write, no network).`);
    t.notOk(plan.autoAllowed.has('read_file'), 'an allow tool needs no decision');
  }
});

t.test('--auto low without a sandbox (off, or none given): bash needs a permission, writes do not', async (t) => {
  for (const shell of [undefined, { sandbox: 'off' as const, network: true }]) {
    const plan = planTools(allTools, { shell });
    t.same(names(plan), [...readOnly, ...writes]);
    t.same([...plan.needPermission], ['bash']);
    t.equal(plan.refusals.get('bash'), 'Permission required: bash runs shell commands outside a sandbox, which this run does not allow. Re-run with --auto high or --skip-permissions-unsafe to allow it.');
  }
});

t.test('--sandbox-network at low and medium: each command needs a permission, asked with --permission-prompt stdio', async (t) => {
  const shell = { sandbox: 'workspace-write' as const, network: true };
  for (const auto of ['low', 'medium'] as const) {
    const refused = planTools(allTools, { auto, shell });
    t.match(refused.refusals.get('bash'), /^Permission required: bash runs shell commands with network access \(--sandbox-network\)/, auto);
    const asked = planTools(allTools, { auto, shell, ask: true });
    t.ok(names(asked).includes('bash'));
    t.ok(asked.askFirst.has('bash'));
    t.notOk(asked.autoAllowed.has('bash'), auto);
    t.equal(asked.permissionMode, 'ask');
  }
});

t.test('--sandbox read-only at low: commands are auto-allowed, the write tools need a permission', async (t) => {
  const plan = planTools(allTools, { shell: { sandbox: 'read-only', network: false } });
  t.same(names(plan), [...readOnly, 'bash']);
  t.equal(plan.refusals.get('write_file'), 'Permission required: write_file changes files and the sandbox is read-only, which this run does not allow. Re-run with --auto high or --skip-permissions-unsafe to allow it.');
});

t.test('with --permission-prompt stdio, the auto-allowed tools are asked for the calls that are not (see Toolbox.gate)', async (t) => {
  const plan = planTools(allTools, { ask: true, shell: sandboxed });
  t.same([...plan.askFirst], [...writes, 'bash']);
  t.same([...plan.autoAllowed.keys()], [...writes, 'bash']);
});

t.test('--skip-permissions-unsafe or --auto high: every tool, and a warning', async (t) => {
  for (const settings of [{ skipPermissionsUnsafe: true }, { auto: 'high' as const }, { auto: 'medium' as const, skipPermissionsUnsafe: true }]) {
    const plan = planTools(allTools, settings);
    t.same(names(plan), everything);
    t.same(plan.warnings, [UNSAFE_WARNING]);
    t.equal(plan.refusals.size, 0);
    t.equal(plan.autoAllowed.size, 0, 'nothing to record: unsafe permissions allow it');
    t.equal(plan.permissionMode, 'unsafe');
  }
});

t.test('--enabled-tools and --disabled-tools narrow the set; the model is told why a call is refused', async (t) => {
  const plan = planTools(allTools, { auto: 'high', enabled: ['read_file', 'bash', 'edit_file'], disabled: ['write_file'] });
  t.same(names(plan), ['read_file', 'edit_file', 'bash']);
  t.equal(plan.refusals.get('grep'), 'Tool grep is not in --enabled-tools.');
  t.equal(plan.refusals.get('write_file'), 'Tool write_file is disabled by --disabled-tools.');
  t.same(names(planTools(allTools, { disabled: ['grep', 'bash'] })), ['read_file', 'list_directory', 'glob', ...writes]);
});

t.test('an enabled bash without a sandbox still needs a permission', async (t) => {
  const plan = planTools(allTools, { enabled: ['bash'] });
  t.same(names(plan), []);
  t.match(plan.refusals.get('bash'), /^Permission required/);
});

t.test('a tool name this run does not have is a usage error naming it and the flag', async (t) => {
  t.throws(() => planTools(allTools, { enabled: ['read_file', 'web_search'] }), { code: 'usage_error', message: `Unknown tool "web_search" in --enabled-tools: this run has ${everything.join(', ')}.` });
  t.throws(() => planTools(allTools, { disabled: ['notebook_edit'] }), { code: 'usage_error', message: /^Unknown tool "notebook_edit" in --disabled-tools/ });
  t.throws(() => planTools(allTools.slice(0, 2), { enabled: ['grep'] }), { message: /^Unknown tool "grep"/ }, 'the list given is the whole list: a tool added later (MCP) counts');
});

t.test('a tool both enabled and disabled is a usage error', async (t) => {
  t.throws(() => planTools(allTools, { enabled: ['grep'], disabled: ['grep'] }), { code: 'usage_error', message: 'Tool "grep" is both in --enabled-tools and in --disabled-tools.' });
});

t.test('parseToolNames: comma or space separated, repeatable; malformed names are usage errors', async (t) => {
  t.same(parseToolNames('--enabled-tools', ['read_file,grep', 'bash  glob']), ['read_file', 'grep', 'bash', 'glob']);
  t.equal(parseToolNames('--enabled-tools', undefined), undefined);
  t.throws(() => parseToolNames('--disabled-tools', ['read_file,rm -rf/']), { code: 'usage_error', message: 'Invalid tool name in --disabled-tools: "-rf/". Tool names are letters, digits, "_" and "-" (or mcp_<server>_* for all of a server\'s tools).' });
  t.same(parseToolNames('--disabled-tools', ['mcp_fs_*']), ['mcp_fs_*']);
  t.throws(() => parseToolNames('--disabled-tools', ['read_*']), { code: 'usage_error' });
});

t.test('MCP tools: never auto-allowed unless read-only; mcp_<server>_* names all of a server', async (t) => {
  const mcpTool = (name: string, sideEffect: 'read' | 'write' | 'network'): AnyTool => ({ name, description: name, parameters: { type: 'object' }, sideEffect, permission: sideEffect === 'read' ? 'allow' : 'prompt', server: 'fs', run: async () => '' });
  const tools = [...allTools, mcpTool('mcp_fs_read', 'read'), mcpTool('mcp_fs_write', 'write'), mcpTool('mcp_fs_fetch', 'network')];
  const offered = (settings: Parameters<typeof planTools>[1]) => planTools(tools, settings).advertised.map((tool) => tool.name).filter((name) => name.startsWith('mcp_'));
  t.same(offered({ shell: sandboxed }), ['mcp_fs_read']);
  t.same(offered({ shell: sandboxed, auto: 'medium' }), ['mcp_fs_read']);
  t.same(offered({ shell: sandboxed, auto: 'high' }), ['mcp_fs_read', 'mcp_fs_write', 'mcp_fs_fetch']);
  t.match(planTools(tools, { shell: sandboxed }).refusals.get('mcp_fs_write'), /^Permission required: mcp_fs_write may change things \(MCP server fs; not marked read-only\)/);
  t.match(planTools(tools, { shell: sandboxed }).refusals.get('mcp_fs_fetch'), /may change things beyond this machine/);
  t.same(offered({ shell: sandboxed, ask: true }), ['mcp_fs_read', 'mcp_fs_write', 'mcp_fs_fetch'], '--permission-prompt stdio offers them, asking for each call');
  t.same([...planTools(tools, { shell: sandboxed, ask: true }).askFirst].filter((name) => name.startsWith('mcp_')), ['mcp_fs_write', 'mcp_fs_fetch']);
  t.same(offered({ shell: sandboxed, auto: 'high', disabled: ['mcp_fs_*'] }), []);
  t.same(offered({ shell: sandboxed, auto: 'high', enabled: ['mcp_fs_write'] }), ['mcp_fs_write']);
  t.throws(() => planTools(tools, { disabled: ['mcp_git_*'] }), { code: 'usage_error', message: /^Unknown tool "mcp_git_\*" in --disabled-tools/ });
});

t.test('the listing: one line per tool with why it is on or off', async (t) => {
  const listing = planTools(allTools, { shell: sandboxed }).listing;
  t.same(listing[0], { name: 'read_file', sideEffect: 'read', permission: 'allow', advertised: true, reason: 'only reads: always allowed' });
  t.same(listing[4], { name: 'write_file', sideEffect: 'write', permission: 'prompt', advertised: true, reason: 'changes files: auto-allowed inside the working directory and the --add-dir directories' });
  t.same(listing.at(-1), { name: 'bash', sideEffect: 'shell', permission: 'prompt', advertised: true, reason: 'runs shell commands: auto-allowed in the workspace-write sandbox' });
  t.same(planTools(allTools, {}).listing.at(-1), { name: 'bash', sideEffect: 'shell', permission: 'prompt', advertised: false, reason: 'runs shell commands outside a sandbox: needs --auto high or --skip-permissions-unsafe' });
});

t.test('the permission mode, and which refusals a permission would lift (those are permission_requests)', async (t) => {
  const auto = planTools(allTools, { disabled: ['apply_patch', 'grep'], shell: { sandbox: 'read-only', network: true } });
  t.equal(auto.permissionMode, 'auto');
  t.same([...auto.needPermission].sort(), ['bash', 'edit_file', 'write_file'], 'apply_patch is disabled: no permission would allow it');
  const unsafe = planTools(allTools, { auto: 'high', disabled: ['bash'] });
  t.equal(unsafe.permissionMode, 'unsafe');
  t.same([...unsafe.needPermission], []);
  t.equal(planTools(allTools, { auto: 'medium', skipPermissionsUnsafe: true }).permissionMode, 'unsafe');
});

t.test('protected paths: .git, .zero and .agents anywhere in the path, relative to the directory it is in', async (t) => {
  for (const file of ['.git/hooks/pre-commit', 'sub/.git/config', '.zero/config.json', '.agents/x', '/add/dir/.git/HEAD']) t.ok(isProtectedPath(file, ['/add/dir']), file);
  for (const file of ['src/git.ts', '.gitignore', '.zerorc', '/home/.git/work/a.txt']) t.notOk(isProtectedPath(file, ['/home/.git/work']), file);
  t.match(protectedWriteReason('write_file', '.git/hooks/pre-commit'), /^Permission required: write_file would change \.git\/hooks\/pre-commit, and --auto low and medium never change what is in \.git, \.zero, \.agents without asking/);
});
