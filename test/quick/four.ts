import { runShard } from './shard.js';

await runShard(4, import.meta.url);
