import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

// The package as npm would publish it (run after the build: npm test builds first).

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const packed = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' })) as [{ files: { path: string }[] }];
const files = packed[0].files.map((file) => file.path);

t.test('the package carries a LICENSE for the license package.json declares', async (t) => {
  t.ok(files.includes('LICENSE'));
  const license = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { license: string }).license;
  t.match(readFileSync(join(root, 'LICENSE'), 'utf8'), new RegExp(`^${license} License`));
});

t.test('every shipped source map carries the sources it points at (the .ts files are not shipped)', async (t) => {
  const maps = files.filter((path) => path.endsWith('.js.map'));
  t.ok(maps.length > 50, `${maps.length} maps`);
  t.notOk(files.some((path) => path.endsWith('.ts') && !path.endsWith('.d.ts')), 'no .ts sources');
  const incomplete = maps.filter((path) => {
    const map = JSON.parse(readFileSync(join(root, path), 'utf8')) as { sources: string[]; sourcesContent?: (string | null)[] };
    return map.sources.some((_, index) => typeof map.sourcesContent?.[index] !== 'string');
  });
  t.same(incomplete, []);
});
