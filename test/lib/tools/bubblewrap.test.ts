import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { findBubblewrap, sandboxSupport } from '../../../lib/tools/bubblewrap.js';
import { needsBubblewrap } from '../../helpers/sandbox.js';

/** An executable script standing in for bwrap. */
function fakeBwrap(dir: string, body: string): string {
  const path = join(dir, 'bwrap');
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

t.test('ZERO_BWRAP wins; a missing file (or a directory) means no sandbox, with the reason', async (t) => {
  const dir = t.testdir({ bin: {} });
  const bwrap = fakeBwrap(join(dir, 'bin'), 'exit 0');
  t.equal(findBubblewrap({ ZERO_BWRAP: bwrap, PATH: '' }, '/'), bwrap);
  t.same(findBubblewrap({ ZERO_BWRAP: '/nonexistent/bwrap', PATH: join(dir, 'bin') }, '/'), { missing: 'ZERO_BWRAP names /nonexistent/bwrap, which is not an executable file' });
  t.same(findBubblewrap({ ZERO_BWRAP: dir }, '/'), { missing: `ZERO_BWRAP names ${dir}, which is not an executable file` });
});

t.test('on PATH, skipping relative entries and those inside the working directory (a repository cannot bring its own)', async (t) => {
  const dir = t.testdir({ repo: { bin: {} }, system: {} });
  fakeBwrap(join(dir, 'repo', 'bin'), 'exit 0');
  const system = fakeBwrap(join(dir, 'system'), 'exit 0');
  const repo = join(dir, 'repo');
  t.equal(findBubblewrap({ PATH: [join(repo, 'bin'), 'bin', join(dir, 'system')].join(':') }, repo), system);
  t.same(findBubblewrap({ PATH: join(repo, 'bin') }, repo), { missing: 'bwrap (bubblewrap) is not on PATH' });
  t.same(findBubblewrap({}, repo), { missing: 'bwrap (bubblewrap) is not on PATH' });
});

t.test('a bwrap that cannot create namespaces: no sandbox, and bwrap\'s own words say why', async (t) => {
  const dir = t.testdir({});
  const bwrap = fakeBwrap(dir, 'echo "bwrap: No permissions to create a new namespace, likely because the kernel does not allow non-privileged user namespaces." >&2; exit 1');
  t.same(await sandboxSupport({ ZERO_BWRAP: bwrap }, '/'), {
    ok: false,
    reason: `${bwrap} cannot start a sandbox here: bwrap: No permissions to create a new namespace, likely because the kernel does not allow non-privileged user namespaces.`,
  });
});

t.test('checked once per process: every later question gets the first answer', async (t) => {
  const dir = t.testdir({});
  const bwrap = fakeBwrap(dir, `echo run >> ${join(dir, 'runs')}; exit 0`);
  const first = sandboxSupport({ ZERO_BWRAP: bwrap }, '/');
  t.equal(sandboxSupport({ ZERO_BWRAP: bwrap }, '/tmp'), first, 'the same promise');
  t.same(await first, { ok: true, bwrap });
  await sandboxSupport({ ZERO_BWRAP: bwrap }, '/');
  t.equal(readFileSync(join(dir, 'runs'), 'utf8'), 'run\n');
});

t.test('the real one starts here (or the sandbox tests say why they skip)', { skip: needsBubblewrap }, async (t) => {
  t.match(await sandboxSupport(process.env, process.cwd()), { ok: true, bwrap: /bwrap$/ });
});
