import t from 'tap';
import { formatToolListing } from '../../../lib/cli/list-tools.js';
import { jsonLines, zero } from '../../helpers/zero.js';

const listing = [
  { name: 'read_file', sideEffect: 'read', permission: 'allow', advertised: true, reason: 'only reads: always allowed' },
  { name: 'bash', sideEffect: 'shell', permission: 'prompt', advertised: false, reason: 'disabled by --disabled-tools' },
] as const;

t.test('formatToolListing in each format', async (t) => {
  t.equal(formatToolListing([...listing], 'text'), 'read_file        read    allow   on   only reads: always allowed\nbash             shell   prompt  off  disabled by --disabled-tools\n');
  t.same(jsonLines(formatToolListing([...listing], 'json'))[1], { type: 'tool', name: 'bash', side_effect: 'shell', permission: 'prompt', advertised: false, reason: 'disabled by --disabled-tools' });
  t.same(jsonLines(formatToolListing([...listing], 'stream-json'))[0], { type: 'tool', ...listing[0] });
});

t.test('zero exec --list-tools needs no provider and exits 0, in all three formats', async (t) => {
  const text = await zero(['exec', '--list-tools']);
  t.equal(text.code, 0);
  t.match(text.stdout, /^read_file +read +allow +on +only reads/m);
  t.match(text.stdout, /^bash +shell +prompt +off +runs shell commands: needs --auto high/m);
  const json = await zero(['exec', '--list-tools', '-o', 'json', '--skip-permissions-unsafe']);
  t.equal(json.code, 0);
  t.ok(jsonLines(json.stdout).every((tool) => tool.advertised === true));
  const streamJson = await zero(['exec', '--list-tools', '-o', 'stream-json', '--disabled-tools', 'grep']);
  t.equal(streamJson.code, 0);
  t.match(jsonLines(streamJson.stdout).find((tool) => tool.name === 'grep'), { advertised: false, reason: 'disabled by --disabled-tools' });
  t.equal(streamJson.stderr, '');
});
