import { statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { cwdHash, hiddenFields, ranIn, readLaunch, writeLaunch } from '../../../lib/sessions/launch.js';
import { LAUNCH_FILE } from '../../../lib/sessions/paths.js';

t.test('hiddenFields: only what the redacted metadata does not hold as it is', async (t) => {
  const real = { cwd: '/w/ws-sk-secret', profile: 'work', script: 's.jsonl' };
  t.same(hiddenFields(real, { cwd: '/w/ws-[REDACTED]', profile: 'work', script: 's.jsonl' }), { cwd: '/w/ws-sk-secret' });
  t.same(hiddenFields(real, real), {});
});

t.test('ranIn: by the hash when the cwd is redacted, else by the path, resolved', async (t) => {
  t.ok(ranIn({ cwd: '/w/[REDACTED]', cwdHash: cwdHash('/w/ws-sk-secret') }, '/w/x/../ws-sk-secret'));
  t.notOk(ranIn({ cwd: '/w/[REDACTED]', cwdHash: cwdHash('/w/ws-sk-secret') }, '/w/other'));
  t.ok(ranIn({ cwd: '/w/a/' }, '/w/a'));
});

t.test('writeLaunch then readLaunch: the hidden fields back, in a private file; nothing written when nothing is hidden', async (t) => {
  const dir = t.testdir({});
  await writeLaunch(dir, {});
  t.same(await readLaunch(dir), {}, 'no launch.json: nothing hidden');
  await writeLaunch(dir, { cwd: '/w/ws-sk-secret', script: 'x' });
  t.equal(statSync(join(dir, LAUNCH_FILE)).mode & 0o777, 0o600);
  t.same(await readLaunch(dir), { cwd: '/w/ws-sk-secret', script: 'x' });
  await t.rejects(writeLaunch(dir, { cwd: '/again' }), { code: 'EEXIST' }, 'an existing launch.json is never overwritten');
});

t.test('readLaunch: garbage is nothing hidden; a symlink is refused', async (t) => {
  const dir = t.testdir({ garbage: {}, linked: {} });
  writeFileSync(join(dir, 'garbage', LAUNCH_FILE), '{not json');
  t.same(await readLaunch(join(dir, 'garbage')), {});
  writeFileSync(join(dir, 'target.json'), '{"cwd":"/elsewhere"}');
  symlinkSync(join(dir, 'target.json'), join(dir, 'linked', LAUNCH_FILE));
  await t.rejects(readLaunch(join(dir, 'linked')));
});
