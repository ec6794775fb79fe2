import { join } from 'node:path';
import t, { type Test } from 'tap';
import { launchOf, providerFlags } from '../../../lib/cli/resume.js';
import type { ExecSettings } from '../../../lib/cli/options.js';
import type { ZeroConfig } from '../../../lib/providers/config.js';
import { createSession, unlockSession } from '../../../lib/sessions/store.js';

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
