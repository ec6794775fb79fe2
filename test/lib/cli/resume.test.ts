import { join } from 'node:path';
import t, { type Test } from 'tap';
import { PassThrough } from 'node:stream';
import { launchOf, providerFlags, sessionProviderError } from '../../../lib/cli/resume.js';
import { readText } from '../../helpers/streams.js';
import { main } from '../../../lib/cli/main.js';
import { ProviderError } from '../../../lib/errors.js';
import { jsonLines } from '../../helpers/zero.js';
import type { ExecSettings } from '../../../lib/cli/options.js';
import type { ZeroConfig } from '../../../lib/providers/config.js';
import { createSession, forkSession, unlockSession } from '../../../lib/sessions/store.js';
import { readFileSync, statSync } from 'node:fs';

/** A store with one session run with these, and the settings of a run in its working directory. */
async function setup(t: Test, recorded: { provider: string; model: string; profile?: string; script?: string }) {
  const home = t.testdir({});
  const env = { ZERO_HOME: home };
  const session = await createSession({ root: join(home, 'sessions'), cwd: home, prompt: 'hi', ...recorded });
  await unlockSession(session);
  const settings = (flags: Partial<ExecSettings>) => ({ cwd: home, noSession: false, ...flags }) as ExecSettings;
  return { env, id: session.id, settings };
}

t.test('a new run uses the flags as given', async (t) => {
  const { env, settings } = await setup(t, { provider: 'scripted', model: 'scripted', script: '/s.jsonl' });
  t.same(await providerFlags(settings({ model: 'm' }), env), { provider: undefined, model: 'm', script: undefined });
});

t.test("--resume continues with the session's provider, model and script; --resume without an id, the newest here", async (t) => {
  const { env, id, settings } = await setup(t, { provider: 'scripted', model: 'scripted', script: '/s.jsonl' });
  const recorded = { provider: 'scripted', model: 'scripted', script: '/s.jsonl' };
  t.same(await providerFlags(settings({ session: { resume: id } }), env), { ...recorded, session: { resume: id } });
  t.same(await providerFlags(settings({ session: { resume: true } }), env), { ...recorded, session: { resume: id } }, 'the session found, by its id: the run resumes the one its provider came from');
  t.same(await providerFlags(settings({ session: { fork: id } }), env), { ...recorded, session: { fork: id } }, 'a fork too');
});

t.test('--model and --script replace only themselves; --provider starts from nothing of the session', async (t) => {
  const { env, id, settings } = await setup(t, { provider: 'openai-compatible', model: 'llama', profile: 'gw' });
  t.same(await providerFlags(settings({ session: { resume: id }, model: 'other' }), env), { provider: 'gw', model: 'other', script: undefined, session: { resume: id } }, 'the profile, not its kind');
  t.same(await providerFlags(settings({ session: { resume: id }, provider: 'anthropic' }), env), { provider: 'anthropic', model: undefined, script: undefined });
});

t.test('launchOf records the profile that chose the provider and the scripted script', async (t) => {
  const config = { profiles: new Map([['gw', {}]]), warnings: [] } as unknown as ZeroConfig;
  t.same(launchOf({ kind: 'scripted', script: '/s.jsonl' }, undefined, {}, config), { profile: undefined, script: '/s.jsonl' });
  t.same(launchOf({ kind: 'openai', options: {} } as never, 'gw', {}, config), { profile: 'gw', script: undefined });
  t.same(launchOf({ kind: 'openai', options: {} } as never, undefined, { ZERO_PROVIDER: 'gw' }, config), { profile: 'gw', script: undefined });
  t.same(launchOf({ kind: 'openai', options: {} } as never, 'openai', {}, config), { profile: undefined, script: undefined }, 'a built-in is no profile');
});

t.test('a provider that came from the session and cannot run: the error says so and how to choose another', async (t) => {
  const { env, id } = await setup(t, { provider: 'openai', model: 'gpt-4.1' });
  const saved = { ...console };
  t.teardown(() => Object.assign(console, saved)); // exec captures the console for --debug
  const stdout = new PassThrough();
  const exits: number[] = [];
  const io = { stdin: new PassThrough(), stdout, stderr: { write: () => true }, env: { ...env, XDG_CONFIG_HOME: '/nonexistent' }, exit: (code: number) => void exits.push(code) };
  await main(['exec', '-o', 'stream-json', '--resume', id, 'Again?'], io);
  stdout.end();
  t.same(exits, [3]);
  t.match(jsonLines(await readText(stdout))[0], {
    type: 'error',
    code: 'provider_error',
    message: `The openai provider needs an API key: set OPENAI_API_KEY. The openai provider (model gpt-4.1) is the one session ${id} ran with; to continue it with another, pass --provider NAME (and --model NAME).`,
  });
  const asked = new ProviderError('The openai provider needs an API key: set OPENAI_API_KEY.');
  t.equal(sessionProviderError(asked, { provider: 'openai' }, { provider: 'openai', session: { resume: id } }), asked, 'asked for with --provider: as it was');
  t.equal(sessionProviderError(asked, {}, { provider: 'openai' }), asked, 'no session: as it was');
});

t.test('a secret in the cwd, the script path or the profile name: metadata.json holds it redacted, and --resume and --fork still use the real ones', async (t) => {
  const token = ['ghp', '_', 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'].join('');
  const home = t.testdir({ [token]: {} });
  const cwd = join(home, token);
  const root = join(home, 'sessions');
  const real = { profile: `work-${token}`, script: join(cwd, 's.jsonl') };
  const session = await createSession({ root, cwd, prompt: 'hi', provider: 'scripted', model: 'scripted', ...real });
  await unlockSession(session);
  t.notOk(readFileSync(join(session.dir, 'metadata.json'), 'utf8').includes(token.slice(4, 16)), 'metadata.json is redacted');
  t.equal(statSync(join(session.dir, 'launch.json')).mode & 0o777, 0o600, 'the real values are kept private');
  const env = { ZERO_HOME: home };
  const settings = (flags: Partial<ExecSettings>) => ({ cwd, noSession: false, ...flags }) as ExecSettings;
  const expected = { provider: real.profile, model: 'scripted', script: real.script };
  t.same(await providerFlags(settings({ session: { resume: true } }), env), { ...expected, session: { resume: session.id } }, '--resume without an id finds it from its cwd');
  t.same(await providerFlags(settings({ session: { resume: session.id } }), env), { ...expected, session: { resume: session.id } });
  const fork = await forkSession(root, session.id, {});
  await unlockSession(fork);
  t.same(await providerFlags(settings({ session: { fork: fork.id } }), env), { ...expected, session: { fork: fork.id } }, 'a fork of it keeps them');
});
