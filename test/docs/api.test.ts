import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import * as library from '../../lib/index.js';
import { packageRoot } from '../../lib/package.js';

// docs/api.md documents every export of the package with an example: each ```js block is run as a program of its
// own that imports 'zero-stream' (this checkout, built), and the ```text block after it is what it must print.

const doc = readFileSync(join(packageRoot(), 'docs', 'api.md'), 'utf8');
const blocks = [...doc.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((match) => ({ lang: match[1]!, body: match[2]!, at: doc.slice(0, match.index).split('\n').length }));
const examples = blocks.flatMap((block, index) => (block.lang === 'js' ? [{ ...block, prints: blocks[index + 1]?.lang === 'text' ? blocks[index + 1]!.body : undefined }] : []));

t.test('every export of the package is named in docs/api.md and used in one of its examples', async (t) => {
  const code = examples.map((example) => example.body).join('\n');
  for (const name of Object.keys(library)) {
    t.match(doc, `\`${name}`, `${name} is documented`);
    t.match(code, new RegExp(`\\b${name}\\b`), `${name} has an example`);
  }
});

t.test('every example prints what the block after it says', async (t) => {
  t.ok(examples.length >= 20, `${examples.length} examples`);
  // inside the checkout, so that 'zero-stream' resolves to it (a package can import itself by name)
  const dir = t.testdir({});
  const run = (example: (typeof examples)[number], index: number) =>
    new Promise<void>((resolve) => {
      const file = join(dir, `example-${index}.mjs`);
      writeFileSync(file, example.body);
      execFile(process.execPath, [file], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) => {
        t.equal(error, null, `the example at line ${example.at} runs: ${stderr}`);
        if (example.prints !== undefined) t.equal(stdout, example.prints, `the example at line ${example.at} prints what docs/api.md says`);
        resolve();
      });
    });
  // two at a time: the machine's cores
  const queue = examples.map((example, index) => () => run(example, index));
  await Promise.all([0, 1].map(async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await next();
  }));
});
