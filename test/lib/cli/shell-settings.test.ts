import { chmodSync, existsSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { execSettings, type RawExecOptions } from '../../../lib/cli/options.js';
import { shellSetup } from '../../../lib/cli/shell-settings.js';
import { tempDir } from '../../helpers/zero.js';

/**
 * A run's shell setup in a directory of its own: `bwrap` is a stand-in script that succeeds (the sandbox works
 * here) or fails; each call to it leaves a line in `probes`, so a test sees whether it was checked.
 */
function machine(t: Test, bwrap: 'works' | 'fails' = 'works') {
  const dir = tempDir(t);
  for (const sub of ['work', 'config/zero', 'bin']) mkdirSync(join(dir, sub), { recursive: true });
  const fake = join(dir, 'bin', 'bwrap');
  writeFileSync(fake, `#!/bin/sh\necho probe >> ${join(dir, 'probes')}\n${bwrap === 'works' ? 'exit 0' : 'echo "bwrap: setting up uid map: Permission denied" >&2; exit 1'}\n`);
  chmodSync(fake, 0o755);
  const env = { PATH: process.env.PATH, HOME: '/home/me', XDG_CONFIG_HOME: join(dir, 'config'), ZERO_BWRAP: fake };
  const setup = (raw: RawExecOptions, extraEnv: NodeJS.ProcessEnv = {}) => shellSetup(raw, execSettings(['go'], { cwd: join(dir, 'work'), ...raw }, env), { ...env, ...extraEnv });
  return { dir, fake, env, setup, probed: () => existsSync(join(dir, 'probes')), userConfig: join(dir, 'config', 'zero', 'config.json') };
}

t.test('by default: workspace-write with no network, and a warning saying so', async (t) => {
  const { setup, probed } = machine(t);
  const shell = await setup({});
  t.same(shell.shell, { sandbox: 'workspace-write', network: false });
  t.equal(shell.statement, 'Shell commands run in the workspace-write sandbox (bubblewrap, the default): they can read the file system but write only the working directory, the --add-dir directories and a private /tmp; there is no network; nothing they start outlives the call.');
  t.same(shell.warnings, []);
  t.ok(probed());
});

t.test('bubblewrap missing or unable to start: off, and a warning with the reason and the way to get it', async (t) => {
  const missing = machine(t);
  const shell = await missing.setup({}, { ZERO_BWRAP: '/nonexistent/bwrap' });
  t.same(shell.shell, { sandbox: 'off', network: false });
  t.match(shell.statement, /^The shell sandbox \(workspace-write\) is off: ZERO_BWRAP names \/nonexistent\/bwrap, which is not an executable file\. Install bubblewrap 0\.8 or later \(apt install bubblewrap.*kernel\.unprivileged_userns_clone=1.*at --auto low and medium bash needs a permission\.$/);
  const failing = machine(t, 'fails');
  t.match((await failing.setup({ sandbox: 'read-only' })).statement, /^The shell sandbox \(read-only\) is off: .*bwrap cannot start a sandbox here: bwrap: setting up uid map: Permission denied\./);
});

t.test('--sandbox off and --skip-permissions-unsafe: no sandbox, nothing checked, and the warning says what that means', async (t) => {
  const { setup, probed } = machine(t);
  for (const raw of [{ sandbox: 'OFF' }, { skipPermissionsUnsafe: true }, { skipPermissionsUnsafe: true, auto: 'medium' }]) {
    const shell = await setup(raw);
    t.same(shell.shell, { sandbox: 'off', network: false });
    t.match(shell.statement, /^Shell commands run without a sandbox \((--sandbox off|--skip-permissions-unsafe)\): they can change anything you can, reach the network and read this process's environment, and a process they move to a session of its own outlives the run\.$/);
  }
  t.notOk(probed());
  t.same((await setup({ skipPermissionsUnsafe: true, sandbox: 'read-only' })).shell, { sandbox: 'read-only', network: false }, 'an explicit --sandbox wins');
});

t.test('--sandbox-network; --sandbox read-only', async (t) => {
  const { setup } = machine(t);
  const networked = await setup({ sandboxNetwork: true });
  t.same(networked.shell, { sandbox: 'workspace-write', network: true });
  t.match(networked.statement, /the network is open \(--sandbox-network\)/);
  const readOnly = await setup({ sandbox: 'read-only' });
  t.match(readOnly.statement, /^Shell commands run in the read-only sandbox \(bubblewrap, --sandbox read-only\): they can read the file system but write only a private \/tmp;/);
});

t.test('bash disabled: the sandbox is nobody\'s concern, nothing is checked or said', async (t) => {
  const { setup, probed } = machine(t);
  t.equal((await setup({ disabledTools: ['bash'] })).statement, undefined);
  t.equal((await setup({ enabledTools: ['read_file'] })).statement, undefined);
  t.notOk(probed());
});

t.test('the config files: mode and network, flags winning', async (t) => {
  const { setup, userConfig } = machine(t);
  writeFileSync(userConfig, JSON.stringify({ sandbox: { mode: 'read-only', network: 'allow' } }));
  const shell = await setup({});
  t.same(shell.shell, { sandbox: 'read-only', network: true });
  t.match(shell.statement, `(bubblewrap, sandbox.mode in ${userConfig})`);
  t.same((await setup({ sandbox: 'workspace-write' })).shell, { sandbox: 'workspace-write', network: true });
});

t.test('bad flags are usage errors', async (t) => {
  const { setup } = machine(t);
  await t.rejects(setup({ sandbox: 'danger-full-access' }), { code: 'usage_error', message: 'Invalid value for --sandbox: "danger-full-access". Expected one of: workspace-write, read-only, off.' });
  await t.rejects(setup({ envPass: ['NPM_TOKEN', 'BAD-NAME'] }), { code: 'usage_error', message: /^Invalid value for --env-pass: "BAD-NAME"/ });
});

t.test('the policy: real roots, the user config hidden, and the environment without the run\'s credentials', async (t) => {
  const { setup, dir, fake, userConfig, env } = machine(t);
  symlinkSync(join(dir, 'work'), join(dir, 'link'));
  writeFileSync(userConfig, JSON.stringify({ shellEnvironment: { exclude: ['HOME'] } }));
  const shell = await setup({ envPass: ['NPM_*'] }, { NPM_TOKEN: 'npm_abcdefghijklmnop', GITHUB_TOKEN: 'ghp_abcdefghijklmnop', INNOCENT: 'a-key-the-run-loaded' });
  const policy = shell.policy([join(dir, 'link'), join(dir, 'work')], ['a-key-the-run-loaded']);
  t.same(policy.roots, [realpathSync(join(dir, 'work'))]);
  t.equal(policy.bwrap, fake);
  t.same(policy.hidden, [userConfig]);
  t.same(policy.env, { PATH: env.PATH, XDG_CONFIG_HOME: env.XDG_CONFIG_HOME, ZERO_BWRAP: fake, NPM_TOKEN: 'npm_abcdefghijklmnop' });
  t.equal(policy.network, false);
  const off = (await setup({ sandbox: 'off' })).policy([join(dir, 'work')], []);
  t.same([off.sandbox, off.network, off.bwrap], ['off', true, undefined]);
});
