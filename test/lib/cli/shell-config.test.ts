import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { tempDir } from '../../helpers/zero.js';
import { readShellConfig } from '../../../lib/cli/shell-config.js';

/** A user config file and a project config file (either may be left out), read as a run in `project` would. */
async function read(t: Test, user?: unknown, project?: unknown) {
  const dir = tempDir(t);
  for (const sub of ['config/zero', 'project/.zero']) mkdirSync(join(dir, sub), { recursive: true });
  if (user !== undefined) writeFileSync(join(dir, 'config', 'zero', 'config.json'), JSON.stringify(user));
  if (project !== undefined) writeFileSync(join(dir, 'project', '.zero', 'config.json'), JSON.stringify(project));
  const config = await readShellConfig(join(dir, 'project'), { XDG_CONFIG_HOME: join(dir, 'config') });
  return { config, dir, userFile: join(dir, 'config', 'zero', 'config.json'), projectFile: join(dir, 'project', '.zero', 'config.json') };
}

t.test('no files, or files without the sections: the defaults', async (t) => {
  const { config } = await read(t, { providers: [] });
  t.same(config, { writeRoots: [], env: { inherit: 'all', include: [], exclude: [], set: {} }, warnings: [] });
});

t.test('the user file: mode, network (Zero\'s allow/deny, or a boolean), additionalWriteRoots, shellEnvironment', async (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'extra'));
  const { config, userFile } = await read(t, {
    Sandbox: { MODE: 'Read-Only', network: 'allow', additionalWriteRoots: [join(dir, 'extra')] },
    shell_environment: { inherit: 'core', include: ['NPM_TOKEN'], exclude: ['AWS_*'], set: { FOO: 'bar' } },
  });
  t.same(config.mode, { value: 'read-only', file: userFile });
  t.equal(config.network, true);
  t.same(config.writeRoots, [join(dir, 'extra')]);
  t.same(config.env, { inherit: 'core', include: ['NPM_TOKEN'], exclude: ['AWS_*'], set: { FOO: 'bar' } });
  t.equal((await read(t, { sandbox: { network: false } })).config.network, false);
  t.equal((await read(t, { sandbox: { network: 'deny' } })).config.network, false);
});

t.test('a project file may only tighten: the sandbox on, the network shut, fewer variables; the rest is a warning', async (t) => {
  const { config, projectFile } = await read(
    t,
    { sandbox: { mode: 'workspace-write' }, shellEnvironment: { inherit: 'core' } },
    { sandbox: { mode: 'off', network: 'allow', additionalWriteRoots: ['/'] }, shellEnvironment: { inherit: 'all', include: ['*'], exclude: ['HOME'], set: { PATH: '/evil' } } },
  );
  t.equal(config.mode?.value, 'workspace-write');
  t.equal(config.network, undefined);
  t.same(config.writeRoots, []);
  t.same(config.env, { inherit: 'core', include: [], exclude: ['HOME'], set: {} });
  t.same(config.warnings, [
    `Config file ${projectFile}: sandbox.mode "off" is ignored: a project's config file may only tighten the sandbox.`,
    `Config file ${projectFile}: sandbox.network "allow" is ignored: a project's config file may only tighten the sandbox.`,
    `Config file ${projectFile}: sandbox.additionalWriteRoots is ignored: a project's config file may only tighten the sandbox.`,
    `Config file ${projectFile}: shellEnvironment inherit, include, set is ignored: a project's config file may only pass fewer variables to commands.`,
  ]);
  const tighter = await read(t, undefined, { sandbox: { mode: 'read-only', network: 'deny' }, shellEnvironment: { inherit: 'none' } });
  t.same([tighter.config.mode?.value, tighter.config.network, tighter.config.env.inherit], ['read-only', false, 'none']);
});

t.test('mistakes fail the run, naming the file and the key', async (t) => {
  const cases: [unknown, RegExp][] = [
    [{ sandbox: { mode: 'danger' } }, /sandbox\.mode must be one of workspace-write, read-only, off\.$/],
    [{ sandbox: { network: 'maybe' } }, /sandbox\.network must be "allow", "deny", true or false\.$/],
    [{ sandbox: { additionalWriteRoots: ['/nonexistent/dir'] } }, /sandbox\.additionalWriteRoots names \/nonexistent\/dir, which is not a directory\.$/],
    [{ sandbox: { additionalWriteRoots: '/tmp' } }, /sandbox\.additionalWriteRoots must be an array of strings\.$/],
    [{ shellEnvironment: { inherit: 'some' } }, /shellEnvironment\.inherit must be one of all, core, none\.$/],
    [{ shellEnvironment: { set: { A: 1 } } }, /shellEnvironment\.set must be an object of strings\.$/],
  ];
  for (const [user, message] of cases) {
    const dir = tempDir(t);
    mkdirSync(join(dir, 'config', 'zero'), { recursive: true });
    const file = join(dir, 'config', 'zero', 'config.json');
    writeFileSync(file, JSON.stringify(user));
    mkdirSync(join(dir, 'project'));
    await t.rejects(readShellConfig(join(dir, 'project'), { XDG_CONFIG_HOME: join(dir, 'config') }), { code: 'provider_error', message: new RegExp(`^Invalid config file ${file}: ${message.source}`) });
  }
});

t.test('Zero\'s keys zero-stream lacks are a warning, not silence', async (t) => {
  const { config, userFile } = await read(t, { sandbox: { blockUnixSockets: true } });
  t.same(config.warnings, [`Config file ${userFile}: sandbox.blockUnixSockets is not supported by zero-stream and is ignored (sockets under /run are hidden from sandboxed commands instead).`]);
  const monitor = await read(t, { sandbox: { monitorDenials: true } });
  t.same(monitor.config.warnings, [`Config file ${monitor.userFile}: sandbox.monitorDenials is not supported by zero-stream and is ignored (a refused write shows in the command's own output and exit code).`], 'each with its own reason');
});
