import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { packageRoot, packageVersion } from '../../lib/package.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

t.test('packageRoot is the directory of the zero-stream package.json', async (t) => {
  const root = packageRoot();
  t.ok(isAbsolute(root));
  t.equal(root, repoRoot);
  t.ok(existsSync(join(root, 'package.json')));
  t.equal((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string }).name, 'zero-stream');
});

t.test('packageRoot gives the same answer every time', async (t) => {
  t.equal(packageRoot(), packageRoot());
});

t.test('packageVersion is the version in package.json', async (t) => {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
  t.equal(packageVersion(), pkg.version);
  t.match(packageVersion(), /^\d+\.\d+\.\d+/);
});
