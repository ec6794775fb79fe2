import t from 'tap';
import { formatToolListing, toolListingRun } from '../../../lib/cli/list-tools.js';
import { checkAgainstSchema } from '../../../lib/protocol/validate.js';
import { cleanEnv, jsonLines } from '../../helpers/zero.js';
import { zeroHere } from '../../helpers/cli.js';

// Each check runs zero in this process (what it prints and its exit code are the same); bin/zero itself is run
// where only a process shows the behaviour.
const zero = zeroHere;

const listing = [
  { name: 'read_file', sideEffect: 'read', permission: 'allow', advertised: true, reason: 'only reads: always allowed' },
  { name: 'bash', sideEffect: 'shell', permission: 'prompt', advertised: false, reason: 'disabled by --disabled-tools' },
] as const;

t.test('formatToolListing in each format', async (t) => {
  t.equal(formatToolListing([...listing], 'text'), 'read_file        read    allow   on   only reads: always allowed\nbash             shell   prompt  off  disabled by --disabled-tools\n');
  t.same(jsonLines(formatToolListing([...listing], 'json'))[1], { type: 'tool', name: 'bash', side_effect: 'shell', permission: 'prompt', advertised: false, reason: 'disabled by --disabled-tools' });
});

t.test("formatToolListing: an MCP server's tools under its name; the name column as wide as the longest name", async (t) => {
  const tool = { sideEffect: 'read', permission: 'allow', advertised: true, reason: 'only reads: always allowed' } as const;
  const withServers = [listing[0], { ...tool, name: 'mcp_github_list_issues', server: 'github' }, { ...tool, name: 'mcp_github_get_issue', server: 'github' }, { ...tool, name: 'mcp_fs_read', server: 'fs' }];
  t.equal(
    formatToolListing(withServers, 'text'),
    [
      'read_file              read    allow   on   only reads: always allowed',
      'MCP server github:',
      'mcp_github_list_issues read    allow   on   only reads: always allowed',
      'mcp_github_get_issue   read    allow   on   only reads: always allowed',
      'MCP server fs:',
      'mcp_fs_read            read    allow   on   only reads: always allowed',
      '',
    ].join('\n'),
  );
  t.same(jsonLines(formatToolListing(withServers, 'json')).map((line) => line.server), [undefined, 'github', 'github', 'fs']);
});

t.test('toolListingRun: run_start, the warnings, one final whose text is the table', async (t) => {
  t.same(toolListingRun([...listing], { cwd: '/repo', provider: 'none', model: 'none', warnings: ['careful'] }), [
    { type: 'run_start', cwd: '/repo', provider: 'none', model: 'none' },
    { type: 'warning', message: 'careful' },
    { type: 'final', text: formatToolListing([...listing], 'text') },
  ]);
});

t.test('zero exec --list-tools needs no provider and exits 0, in all three formats', async (t) => {
  const text = await zero(['exec', '--list-tools'], { env: cleanEnv({ ZERO_BWRAP: '/nonexistent/bwrap' }) });
  t.equal(text.code, 0);
  t.match(text.stdout, /^read_file +read +allow +on +only reads/m);
  t.match(text.stdout, /^write_file +write +prompt +on +changes files: auto-allowed inside the working directory/m);
  t.match(text.stdout, /^bash +shell +prompt +off +runs shell commands outside a sandbox: needs --auto high/m);
  t.match(text.stderr, /^\[zero\] WARNING: The shell sandbox \(workspace-write\) is off: ZERO_BWRAP names/, 'and why, as a run says it');
  const json = await zero(['exec', '--list-tools', '-o', 'json', '--skip-permissions-unsafe']);
  t.equal(json.code, 0);
  const [warning, ...tools] = jsonLines(json.stdout);
  t.match(warning, { type: 'warning', message: /^Unsafe permissions are active/ }, 'the warning a run gives, first');
  t.ok(tools.every((tool) => tool.type === 'tool' && tool.advertised === true));
  const streamJson = await zero(['exec', '--list-tools', '-o', 'stream-json', '--disabled-tools', 'grep,bash']);
  t.equal(streamJson.code, 0);
  t.match(jsonLines(streamJson.stdout).find((event) => event.type === 'final')?.text, /^grep +read +allow +off +disabled by --disabled-tools$/m);
  t.equal(streamJson.stderr, '');
});

for (const version of [1, 2]) {
  t.test(`--list-tools -o stream-json speaks the protocol in schema version ${version}: every line a valid event, ending with run_end`, async (t) => {
    const args = ['exec', '--list-tools', '-o', 'stream-json', '--disabled-tools', 'grep', '--sandbox', 'off'];
    const result = await zero(version === 2 ? [...args, '--schema-version', '2'] : args);
    t.equal(result.code, 0);
    const events = jsonLines(result.stdout);
    t.same(events.map((event) => event.type), ['run_start', 'warning', 'final', 'run_end']);
    for (const event of events) t.same(checkAgainstSchema(version === 2 ? 'output.v2' : 'output', event), { ok: true, value: event }, `${event.type} is a valid version ${version} event`);
    t.equal(new Set(events.map((event) => event.runId)).size, 1, 'one runId');
    t.match(events[0], { schemaVersion: version, cwd: process.cwd(), provider: 'none', model: 'none' });
    t.notOk('sessionId' in events[0]!, 'nothing is recorded');
    t.match(events[1]!.message, /^Shell commands run without a sandbox \(--sandbox off\)/, 'unconfined commands: said at the start, as a run does');
    t.equal(events[2]!.text, (await zero(['exec', '--list-tools', '--disabled-tools', 'grep', '--sandbox', 'off'])).stdout, 'final.text is the table -o text prints');
    t.match(events[3], { status: 'success', exitCode: 0 });
  });
}

t.test('--list-tools -o stream-json: the provider and model asked for are in run_start; ZERO_SCHEMA_VERSION chooses the version', async (t) => {
  const result = await zero(['exec', '--list-tools', '-o', 'stream-json', '--provider', 'scripted', '-m', 'mine'], { env: cleanEnv({ ZERO_SCHEMA_VERSION: '2' }) });
  t.match(jsonLines(result.stdout)[0], { schemaVersion: 2, type: 'run_start', provider: 'scripted', model: 'mine' });
});

t.test('--list-tools refuses an unknown tool name as a run does: a usage error naming it', async (t) => {
  const text = await zero(['exec', '--list-tools', '--disabled-tools', 'foo']);
  t.equal(text.code, 2);
  t.match(text.stderr, /Unknown tool "foo" in --disabled-tools: this run has read_file, /);
  t.equal(text.stdout, '');
  const json = await zero(['exec', '--list-tools', '-o', 'json', '--disabled-tools', 'foo']);
  t.equal(json.code, 2);
  t.match(jsonLines(json.stdout)[0], { type: 'error', message: /^Unknown tool "foo"/ });
});
