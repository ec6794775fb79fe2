import { repoPath } from '../helpers/repo.js';
import { otherTests } from './shard.js';

// npm test's list of the test files that run one process each: `tap … $(node dist/test/quick/others.js)`
const dir = repoPath('dist', 'test');
process.stdout.write(`${otherTests(dir).map((file) => `dist/test/${file}`).join('\n')}\n`);
