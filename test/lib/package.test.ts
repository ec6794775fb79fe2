import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import t from 'tap';
import { packageRoot, packageVersion } from '../../lib/package.js';

const repoRoot = packageRoot();

t.test('packageRoot is the directory of the zero-stream package.json', async (t) => {
  const root = packageRoot();
  t.ok(isAbsolute(root));
  t.ok(existsSync(join(root, 'test', 'lib', 'package.test.ts')), 'the repository this test is in, run from source or from dist/test/');
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
