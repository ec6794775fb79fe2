import t from 'tap';
import { join } from 'node:path';
import { configPaths, loadConfig } from '../../../lib/providers/config.js';

const userFile = (home: string) => join(home, 'zero', 'config.json');

t.test('where the files are: XDG_CONFIG_HOME, else ~/.config; the project file in the working directory', async (t) => {
  t.same(configPaths('/repo', { XDG_CONFIG_HOME: '/xdg' }), ['/xdg/zero/config.json', '/repo/.zero/config.json']);
  t.same(configPaths('/repo', { HOME: '/home/ada' }), ['/home/ada/.config/zero/config.json', '/repo/.zero/config.json']);
});

t.test('no files: an empty config', async (t) => {
  const dir = t.testdir({});
  const config = await loadConfig(dir, { XDG_CONFIG_HOME: join(dir, 'none') });
  t.same([...config.profiles.keys()], []);
  t.equal(config.activeProvider, undefined);
});

t.test('the layout users already write; unknown fields ignored; the project file wins', async (t) => {
  const dir = t.testdir({
    xdg: { zero: { 'config.json': JSON.stringify({ activeProvider: 'cloud', theme: 'dark', maxTurns: 20, providers: [
      { name: 'cloud', provider: 'openai', model: 'gpt-4.1', colour: 'blue' },
      { name: 'local', provider: 'openai-compatible', baseURL: 'http://localhost:11434/v1', model: 'llama3.2' },
    ] }) } },
    repo: { '.zero': { 'config.json': JSON.stringify({ activeProvider: 'local', providers: [{ name: 'local', provider: 'openai-compatible', baseURL: 'http://localhost:1234/v1', model: 'qwen', apiKey: 'optional' }] }) } },
  });
  const config = await loadConfig(join(dir, 'repo'), { XDG_CONFIG_HOME: join(dir, 'xdg') });
  t.same(config.activeProvider, { name: 'local', file: join(dir, 'repo', '.zero', 'config.json') });
  t.match(config.profiles.get('local'), { provider: 'openai-compatible', baseURL: 'http://localhost:1234/v1', model: 'qwen', apiKey: 'optional' });
  t.match(config.profiles.get('cloud'), { provider: 'openai', model: 'gpt-4.1', file: userFile(join(dir, 'xdg')) });
  t.notOk('colour' in (config.profiles.get('cloud') ?? {}));
  t.equal(config.maxTurns, 20);
});

const broken: [string, string, RegExp][] = [
  ['not JSON', '{"activeProvider": ', /: not valid JSON \(/],
  ['not an object', '[1]', /: expected a JSON object\./],
  ['providers not an array', '{"providers": {}}', /: providers must be an array\./],
  ['an unknown provider kind', '{"providers": [{"name": "x", "provider": "gemini"}]}', /: providers\[0\] \("x"\): provider must be one of openai, anthropic, openai-compatible, not "gemini"/],
  ['a profile without a name', '{"providers": [{"provider": "openai"}]}', /: providers\[0\]\.name must be a non-empty string/],
  ['a missing active profile', '{"activeProvider": "gone", "providers": [{"name": "here", "provider": "openai"}]}', /: activeProvider "gone" names no profile in providers \(known: here\)/],
  ['a bad maxTurns', '{"maxTurns": 0}', /: maxTurns must be a positive integer/],
];

for (const [what, text, message] of broken) {
  t.test(`a file with ${what} is a provider_error naming the file`, async (t) => {
    const dir = t.testdir({ '.zero': { 'config.json': text } });
    const file = join(dir, '.zero', 'config.json');
    await t.rejects(loadConfig(dir, { XDG_CONFIG_HOME: join(dir, 'none') }), { code: 'provider_error', exitCode: 3, message: new RegExp(`^Invalid config file ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}${message.source}`) });
  });
}
