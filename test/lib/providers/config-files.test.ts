import t from 'tap';
import { execFileSync } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configPaths, fieldOf, firstField, readConfigLayers } from '../../../lib/providers/config-files.js';

t.test('where the files are: XDG_CONFIG_HOME, else ~/.config; the project file in the working directory', async (t) => {
  t.same(configPaths('/repo', { XDG_CONFIG_HOME: '/xdg' }), ['/xdg/zero/config.json', '/repo/.zero/config.json']);
  t.same(configPaths('/repo', { HOME: '/home/ada' }), ['/home/ada/.config/zero/config.json', '/repo/.zero/config.json']);
});

t.test('a relative XDG_CONFIG_HOME or HOME is ignored: read from the working directory, a cloned repository\'s file would be the trusted user file', async (t) => {
  for (const xdg of ['~/.config', 'cfg', '.']) {
    t.same(configPaths('/repo', { XDG_CONFIG_HOME: xdg, HOME: '/home/ada' }), ['/home/ada/.config/zero/config.json', '/repo/.zero/config.json'], xdg);
  }
  const [user] = configPaths('/repo', { HOME: 'relative' });
  t.ok(user!.startsWith('/') && !user!.startsWith('/repo'), `an absolute home of the account: ${user}`);
});

t.test('fieldOf: the name in any case, the last spelling in the object wins, null is absent', async (t) => {
  t.equal(fieldOf({ ActiveProvider: 'a' }, 'activeProvider'), 'a');
  t.equal(fieldOf({ baseurl: 'x', BaseURL: 'y' }, 'baseURL'), 'y');
  t.equal(fieldOf({ model: null }, 'model'), undefined);
  t.equal(fieldOf({}, 'model'), undefined);
  t.equal(firstField({ model_id: 'second', model: '' }, 'model', 'model_id'), 'second', 'an empty first spelling gives way to the next');
});

t.test('the files that exist, the user file first, each with its scope', async (t) => {
  const dir = t.testdir({ xdg: { zero: { 'config.json': '{"a": 1}' } }, repo: { '.zero': { 'config.json': '{"b": 2}' } }, bare: {} });
  const env = { XDG_CONFIG_HOME: join(dir, 'xdg') };
  t.same(await readConfigLayers(join(dir, 'repo'), env), [
    { scope: 'user', file: join(dir, 'xdg', 'zero', 'config.json'), document: { a: 1 } },
    { scope: 'project', file: join(dir, 'repo', '.zero', 'config.json'), document: { b: 2 } },
  ]);
  t.same(await readConfigLayers(join(dir, 'bare'), { XDG_CONFIG_HOME: join(dir, 'none') }), []);
});

t.test('a file that is not JSON: the parser message, without the text of the file (it may be a link to a secret)', async (t) => {
  const dir = t.testdir({ '.zero': { 'config.json': 'sk-live-0f9e8d7c6b5a4f3e' } });
  const file = join(dir, '.zero', 'config.json');
  const error = await readConfigLayers(dir, { XDG_CONFIG_HOME: join(dir, 'none') }).catch((failure: Error) => failure);
  t.match(error, { code: 'provider_error', exitCode: 3, message: `Invalid config file ${file}: not valid JSON (an unexpected character).` });
  t.notMatch((error as Error).message, 'sk-live');
});

t.test('a link to a FIFO or a device is refused at once, never read (it would hang the run or fill memory)', async (t) => {
  const dir = t.testdir({ fifo: { '.zero': {} }, device: { '.zero': {} }, folder: { '.zero': { 'config.json': {} } } });
  execFileSync('mkfifo', [join(dir, 'fifo', '.zero', 'config.json')]);
  symlinkSync('/dev/zero', join(dir, 'device', '.zero', 'config.json'));
  const kinds: Record<string, string> = { fifo: 'a FIFO (named pipe)', device: 'a character device', folder: 'a directory' };
  for (const repo of ['fifo', 'device', 'folder']) {
    const file = join(dir, repo, '.zero', 'config.json');
    await t.rejects(readConfigLayers(join(dir, repo), { XDG_CONFIG_HOME: join(dir, 'none') }), { code: 'provider_error', message: `Invalid config file ${file}: it is ${kinds[repo]}, not a regular file.` }, repo);
  }
});

t.test('a file far larger than any config is refused without being read', async (t) => {
  const dir = t.testdir({ '.zero': {} });
  const file = join(dir, '.zero', 'config.json');
  writeFileSync(file, '');
  execFileSync('truncate', ['-s', '5M', file]);
  await t.rejects(readConfigLayers(dir, { XDG_CONFIG_HOME: join(dir, 'none') }), { message: `Invalid config file ${file}: larger than 4194304 bytes.` });
});

t.test('an unreadable file: the reason, named', { skip: process.getuid?.() === 0 && 'root reads every file' }, async (t) => {
  const dir = t.testdir({ '.zero': { 'config.json': '{}' } });
  const file = join(dir, '.zero', 'config.json');
  execFileSync('chmod', ['000', file]);
  await t.rejects(readConfigLayers(dir, { XDG_CONFIG_HOME: join(dir, 'none') }), { message: `Invalid config file ${file}: EACCES (Permission denied)` });
});
