import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { REPO } from './helpers/repo.js';

// The package as npm would publish it (run after the build: npm test builds first).

const root = REPO;
// packed once for every test (npm pack costs seconds of CPU): the tarball, outside the repository, and what npm put in it
const packDir = mkdtempSync(join(tmpdir(), 'zero-pack-'));
t.teardown(() => rmSync(packDir, { recursive: true, force: true }));
const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', packDir], { cwd: root, encoding: 'utf8' })) as [{ filename: string; files: { path: string }[] }];
const files = packed.files.map((file) => file.path);

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

t.test('the docs and examples the help and the README point at are shipped', async (t) => {
  for (const path of ['docs/protocol.md', 'docs/exec.md', 'docs/api.md', 'examples/readme-demo.jsonl', 'examples/embed-exec.mjs', 'examples/check-output.mjs']) t.ok(files.includes(path), path);
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; optionalDependencies: Record<string, string> };
  t.same(Object.keys(pkg.optionalDependencies).sort(), ['@anthropic-ai/sdk', 'openai'], 'the provider SDKs: installed by default, left out with --omit=optional');
  t.notOk('openai' in pkg.dependencies || '@anthropic-ai/sdk' in pkg.dependencies);
});

// A program that embeds the stages, as it would in its own project: its own events through validate → redact →
// stamp → serialize, the README's chain over a log of two runs, and redactLogChain.
const EMBEDDER = `
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { split, parse, validate, redact, stamp, serialize, redactLogChain } from 'zero-stream';

const key = process.env.TEST_KEY;
const collect = async (chunks) => { let text = ''; for await (const chunk of chunks) text += chunk; return text; };
const own = [
  { type: 'run_start', cwd: '/srv', provider: 'mine', model: 'm1' },
  { type: 'text', delta: 'the key is ' + key },
  { type: 'run_end', status: 'success', exitCode: 0 },
];
const result = {};
await pipeline(Readable.from(own), redact(), stamp({ runId: 'run_20260101000000_abcdef' }), validate('output'), serialize('stream-json'), async (chunks) => (result.own = await collect(chunks)));
const log = process.env.TEST_LOG;
await pipeline(Readable.from([log]), split(), parse(), validate('output'), redact(), stamp(), serialize('stream-json'), async (chunks) => (result.chain = await collect(chunks)));
await pipeline(Readable.from([log]), redactLogChain(), async (chunks) => (result.logChain = await collect(chunks)));
result.refused = await pipeline(Readable.from(['a line']), serialize('stream-json'), async (chunks) => collect(chunks)).then(() => 'accepted', (error) => error.message);
console.log(JSON.stringify(result));
`;

t.test('installed from the packed tarball without the SDKs: a program embeds the stages; the CLI runs, and a provider without its SDK says what to install', async (t) => {
  // outside the repository, whose node_modules (the SDKs among them) the installed package would otherwise find
  const dir = mkdtempSync(join(tmpdir(), 'zero-embedder-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'embedder', private: true, type: 'module' }));
  writeFileSync(join(dir, 'embed.mjs'), EMBEDDER);
  execFileSync('npm', ['install', '--omit=dev', '--omit=optional', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', join(packDir, packed.filename)], { cwd: dir, encoding: 'utf8' });
  t.notOk(existsSync(join(dir, 'node_modules/openai')) || existsSync(join(dir, 'node_modules/@anthropic-ai/sdk')), 'no provider SDK installed');

  const key = ['sk-proj-', 'Emb3dd3rT3stK3y0123456789abcdef'].join('');
  const line = (runId: string, event: object) => JSON.stringify({ schemaVersion: 1, runId, ...event });
  const [a, b] = ['run_20260101000000_aaaaaa', 'run_20260101000000_bbbbbb'];
  const log = [line(a, { type: 'text', delta: `one ${key}` }), line(a, { type: 'run_end', status: 'success', exitCode: 0 }), line(b, { type: 'text', delta: 'two' }), line(b, { type: 'run_end', status: 'error', exitCode: 3 })].join('\n') + '\n';
  const result = JSON.parse(execFileSync(process.execPath, ['embed.mjs'], { cwd: dir, env: { ...process.env, TEST_KEY: key, TEST_LOG: log }, encoding: 'utf8' })) as Record<string, string>;
  // redaction may re-split a delta around what it redacted: the text of each run is compared whole
  const runs = (jsonl: string) => {
    const events = jsonl.trimEnd().split('\n').map((text) => JSON.parse(text) as Record<string, string>);
    const text = (runId: string) => events.filter((event) => event.runId === runId && event.type === 'text').map((event) => event.delta).join('');
    return { events, ids: [...new Set(events.map((event) => event.runId))], text };
  };
  const own = runs(result.own!);
  t.same(own.ids, ['run_20260101000000_abcdef']);
  t.same([own.events[0]!.type, own.text('run_20260101000000_abcdef'), own.events.at(-1)!.type], ['run_start', 'the key is [REDACTED]', 'run_end']);
  const chained = runs(result.chain!);
  t.same(chained.ids, [a, b], "the README's chain keeps the log's two runs");
  t.same([chained.text(a), chained.text(b)], ['one [REDACTED]', 'two']);
  t.equal(result.logChain, log.replace(key, '[REDACTED]'), 'redactLogChain: the same log, the key redacted');
  t.match(result.refused, /^The serialize stage takes output events/);

  const zeroBin = join(dir, 'node_modules/.bin/zero');
  const env = { ...process.env, ZERO_HOME: join(dir, '.zero'), XDG_CONFIG_HOME: '/nonexistent', OPENAI_API_KEY: key, OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' };
  const noSdk = spawnSync(zeroBin, ['exec', '-o', 'stream-json', '--no-session', '--provider', 'openai', 'Hi'], { cwd: dir, env, encoding: 'utf8' });
  t.equal(noSdk.status, 3);
  t.match(noSdk.stdout.trimEnd().split('\n').map((text) => JSON.parse(text) as object), [{ type: 'error', code: 'provider_error', message: /needs the npm package openai, which is not installed.*npm install openai@\^6/ }, { type: 'run_end', exitCode: 3 }]);
  const shipped = join(dir, 'node_modules/zero-stream');
  const demo = spawnSync(zeroBin, ['exec', '--no-session', '--provider', 'scripted', '--script', 'examples/readme-demo.jsonl', 'What is this repo?'], { cwd: shipped, env, encoding: 'utf8' });
  t.equal(demo.status, 0, demo.stderr);
  t.match(demo.stdout, /This repository is \*\*zero-stream\*\*/, 'the help\'s first example, run from the package folder it names');
  const help = spawnSync(zeroBin, ['exec', '--help'], { cwd: dir, env, encoding: 'utf8' });
  t.match(help.stdout, `Both are in the package: ${shipped}`);
});
