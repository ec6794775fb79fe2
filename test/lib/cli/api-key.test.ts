import t from 'tap';
import { PassThrough } from 'node:stream';
import { checkApiKey } from '../../../lib/cli/api-key.js';
import { readText } from '../../helpers/streams.js';
import { main } from '../../../lib/cli/main.js';
import { chooseProvider } from '../../../lib/providers/index.js';
import type { ZeroConfig } from '../../../lib/providers/config.js';
import { fakeApi } from '../../helpers/sse-server.js';
import { jsonLines } from '../../helpers/zero.js';

const check = (env: NodeJS.ProcessEnv, config?: ZeroConfig, name?: string) => () => checkApiKey(chooseProvider({ cwd: '.', env, config, name }), env, config);

t.test("a key that cannot be an HTTP header is a usage error naming where it came from, never the key", async (t) => {
  t.throws(check({ OPENAI_API_KEY: 'sk-…' }), { code: 'usage_error', message: /^OPENAI_API_KEY cannot be sent as an API key: its character 4 \(U\+2026\) is not allowed in an HTTP header\. Is it a placeholder/ });
  t.throws(check({ ANTHROPIC_API_KEY: 'sk-ant-secret\nline' }), { message: /^ANTHROPIC_API_KEY .* character 14 \(U\+000A\)/ }, 'a newline (pasted with the key)');
  t.throws(check({ OPENAI_API_KEY: 'sk-🔑' }), { message: /character 4 \(U\+1F511\)/ }, 'a character outside the BMP, by its code point');
  const profile = (fields: object) => ({ activeProvider: { name: 'gw', file: '/c.json' }, profiles: new Map([['gw', { name: 'gw', provider: 'openai', file: '/c.json', ...fields }]]), warnings: [] }) as unknown as ZeroConfig;
  t.throws(check({}, profile({ apiKey: 'key “quoted”' })), { message: /^the apiKey of profile "gw" in \/c\.json cannot be sent/ });
  t.throws(check({ MY_KEY: 'key—dash' }, profile({ apiKey: 'key—dash', apiKeyEnv: 'MY_KEY' })), { message: /^MY_KEY cannot be sent/ });
  try {
    check({ OPENAI_API_KEY: 'sk-proj-SECRETSECRET…' })();
  } catch (error) {
    t.notMatch((error as Error).message, /SECRET/, 'the key is not in the message');
  }
  t.doesNotThrow(check({ OPENAI_API_KEY: 'sk-proj-abcDEF123_-' }), 'a key made of header characters');
  t.doesNotThrow(check({ ZERO_SCRIPT: 'x.jsonl' }, undefined, 'scripted'), 'no key at all');
});

t.test('zero exec with such a key: exit 2 and the message before any request', async (t) => {
  const api = await fakeApi([{ status: 500 }]);
  t.teardown(() => api.close());
  const saved = { ...console };
  t.teardown(() => Object.assign(console, saved)); // exec captures the console for --debug
  const stdout = new PassThrough();
  const exits: number[] = [];
  const env = { OPENAI_API_KEY: 'sk-…', OPENAI_BASE_URL: `${api.url}/v1`, ZERO_HOME: t.testdir({}), XDG_CONFIG_HOME: '/nonexistent' };
  await main(['exec', '-o', 'stream-json', '--no-session', 'Hi'], { stdin: new PassThrough(), stdout, stderr: { write: () => true }, env, exit: (code) => void exits.push(code) });
  stdout.end();
  const events = jsonLines(await readText(stdout));
  t.same(exits, [2]);
  t.match(events, [{ type: 'error', code: 'usage_error', message: /^OPENAI_API_KEY cannot be sent as an API key/ }, { type: 'run_end', exitCode: 2 }]);
  t.equal(api.received.length, 0, 'no request was made');
});
