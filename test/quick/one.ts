import { runShard } from './shard.js';

await runShard(1, import.meta.url);
