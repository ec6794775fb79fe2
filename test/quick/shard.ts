import { readdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import t from 'tap';
import { repoPath } from '../helpers/repo.js';

/**
 * The unit tests of lib/ and transforms/ (not the CLI's, MCP's or the end-to-end leak test, which start processes
 * or take over the process's signals and streams), imported into a few processes instead of one each: tap's start-up
 * and its runner cost about 1.5 s of CPU a file, more than most of these files' own tests. npm test runs them so,
 * and every other test file in a process of its own (others.ts); `npx tap dist/test/lib/x.test.js` still runs one
 * file alone.
 */
const QUICK = /^(lib|transforms)\//;
const SLOW = /^lib\/(cli|mcp)\/|^lib\/redaction\/leak\.test\./;
/** How many processes the unit tests are shared among: one.ts … four.ts, a few for each of tap's two jobs. */
export const SHARDS = 4;

function testFiles(dir: string): string[] {
  const all = readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((file) => file.split(sep).join('/'));
  return all.filter((file) => /\.test\.[jt]s$/.test(file)).sort();
}

export function quickTests(dir: string): string[] {
  return testFiles(dir).filter((file) => QUICK.test(file) && !SLOW.test(file));
}

/** Every test file the shards do not run. */
export function otherTests(dir: string): string[] {
  return testFiles(dir).filter((file) => !QUICK.test(file) || SLOW.test(file));
}

/** Runs every `of`-th quick test file from the `shard`-th (1-based), in this process, one after another. */
export async function runShard(shard: number, testUrl: string, of = SHARDS): Promise<void> {
  const fromSource = testUrl.endsWith('.ts');
  const dir = fromSource ? repoPath('test') : repoPath('dist', 'test');
  const files = quickTests(dir).filter((_, index) => index % of === shard - 1);
  const loading = (async () => {
    for (const file of files) await import(pathToFileURL(join(dir, file)).href);
  })();
  // tap ends its root test when nothing is queued: this one holds it open until every file has queued its tests
  t.test(`loading ${files.length} test files`, () => loading);
  await loading;
}
