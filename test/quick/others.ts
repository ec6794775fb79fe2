import { repoPath } from '../helpers/repo.js';
import { otherTests } from './shard.js';

// npm test's list of the test files that run one process each, written to dist/test/others.txt first (a list that
// failed to be made stops the test command, where an empty substitution would have run fewer tests)
const files = otherTests(repoPath('dist', 'test'));
if (files.length === 0) throw new Error('no test files outside the shards under dist/test: was it built?');
process.stdout.write(`${files.map((file) => `dist/test/${file}`).join('\n')}\n`);
