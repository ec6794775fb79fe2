import { runShard } from './shard.js';

await runShard(1, 2, import.meta.url);
