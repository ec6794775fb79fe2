import { readdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import t from 'tap';
import { repoPath } from '../helpers/repo.js';

/**
 * npm run test:quick: the unit tests of lib/ and transforms/ (not the CLI's, MCP's or the end-to-end leak test, which
 * start processes), imported into a few processes instead of one each: tap's start-up and its runner cost about
 * 0.75 s of CPU a file, more than most of these files' own tests. Every test file still runs alone in npm test.
 */
const QUICK = /^(lib|transforms)\//;
const SLOW = /^lib\/(cli|mcp)\/|^lib\/redaction\/leak\.test\./;

export function quickTests(dir: string): string[] {
  const all = readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((file) => file.split(sep).join('/'));
  return all.filter((file) => /\.test\.[jt]s$/.test(file) && QUICK.test(file) && !SLOW.test(file)).sort();
}

/** Runs every `of`-th quick test file from the `shard`-th (1-based), in this process, one after another. */
export async function runShard(shard: number, of: number, testUrl: string): Promise<void> {
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
