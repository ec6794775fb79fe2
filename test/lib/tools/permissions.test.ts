import t from 'tap';
import { parseToolNames, planTools, UNSAFE_WARNING } from '../../../lib/tools/permissions.js';
import { allTools } from '../../../lib/tools/registry.js';

const names = (plan: ReturnType<typeof planTools>) => plan.advertised.map((tool) => tool.name);
const readOnly = ['read_file', 'list_directory', 'glob', 'grep'];
const everything = [...readOnly, 'write_file', 'edit_file', 'apply_patch', 'bash'];

t.test('by default (and with --auto low or medium) only the allow tools are advertised', async (t) => {
  for (const auto of [undefined, 'low', 'medium'] as const) {
    const plan = planTools(allTools, { auto });
    t.same(names(plan), readOnly, String(auto));
    t.same(plan.warnings, []);
    t.match(plan.refusals.get('write_file'), /^Permission required: write_file changes files, which this run does not allow\. Re-run with --auto high or --skip-permissions-unsafe/);
    t.match(plan.refusals.get('bash'), /bash runs shell commands/);
  }
});

t.test('--skip-permissions-unsafe or --auto high: every tool, and a warning', async (t) => {
  for (const settings of [{ skipPermissionsUnsafe: true }, { auto: 'high' as const }]) {
    const plan = planTools(allTools, settings);
    t.same(names(plan), everything);
    t.same(plan.warnings, [UNSAFE_WARNING]);
    t.equal(plan.refusals.size, 0);
  }
});

t.test('--enabled-tools and --disabled-tools narrow the set; the model is told why a call is refused', async (t) => {
  const plan = planTools(allTools, { auto: 'high', enabled: ['read_file', 'bash', 'edit_file'], disabled: ['write_file'] });
  t.same(names(plan), ['read_file', 'edit_file', 'bash']);
  t.equal(plan.refusals.get('grep'), 'Tool grep is not in --enabled-tools.');
  t.equal(plan.refusals.get('write_file'), 'Tool write_file is disabled by --disabled-tools.');
  t.same(names(planTools(allTools, { disabled: ['grep'] })), ['read_file', 'list_directory', 'glob']);
});

t.test('an enabled prompt tool still needs unsafe permissions', async (t) => {
  const plan = planTools(allTools, { enabled: ['bash'] });
  t.same(names(plan), []);
  t.match(plan.refusals.get('bash'), /^Permission required/);
});

t.test('a tool name this version does not know is skipped with a warning', async (t) => {
  const plan = planTools(allTools, { enabled: ['read_file', 'web_search'], disabled: ['notebook_edit'] });
  t.same(names(plan), ['read_file']);
  t.same(plan.warnings, [
    `Unknown tool "web_search" in --enabled-tools skipped: this version has ${everything.join(', ')}.`,
    `Unknown tool "notebook_edit" in --disabled-tools skipped: this version has ${everything.join(', ')}.`,
  ]);
});

t.test('a tool both enabled and disabled is a usage error', async (t) => {
  t.throws(() => planTools(allTools, { enabled: ['grep'], disabled: ['grep'] }), { code: 'usage_error', message: 'Tool "grep" is both in --enabled-tools and in --disabled-tools.' });
});

t.test('parseToolNames: comma or space separated, repeatable; malformed names are usage errors', async (t) => {
  t.same(parseToolNames('--enabled-tools', ['read_file,grep', 'bash  glob']), ['read_file', 'grep', 'bash', 'glob']);
  t.equal(parseToolNames('--enabled-tools', undefined), undefined);
  t.throws(() => parseToolNames('--disabled-tools', ['read_file,rm -rf/']), { code: 'usage_error', message: 'Invalid tool name in --disabled-tools: "-rf/". Tool names are letters, digits, "_" and "-".' });
});

t.test('the listing: one line per tool with why it is on or off', async (t) => {
  const listing = planTools(allTools, {}).listing;
  t.same(listing[0], { name: 'read_file', sideEffect: 'read', permission: 'allow', advertised: true, reason: 'only reads: always allowed' });
  t.same(listing.at(-1), { name: 'bash', sideEffect: 'shell', permission: 'prompt', advertised: false, reason: 'runs shell commands: needs --auto high or --skip-permissions-unsafe' });
});

t.test('the permission mode, and which refusals a permission would lift (those are permission_requests)', async (t) => {
  const auto = planTools(allTools, { disabled: ['apply_patch', 'grep'] });
  t.equal(auto.permissionMode, 'auto');
  t.same([...auto.needPermission].sort(), ['bash', 'edit_file', 'write_file'], 'apply_patch is disabled: no permission would allow it');
  const unsafe = planTools(allTools, { auto: 'high', disabled: ['bash'] });
  t.equal(unsafe.permissionMode, 'unsafe');
  t.same([...unsafe.needPermission], []);
  t.equal(planTools(allTools, { auto: 'medium', skipPermissionsUnsafe: true }).permissionMode, 'unsafe');
});
