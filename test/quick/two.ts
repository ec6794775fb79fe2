import { runShard } from './shard.js';

await runShard(2, import.meta.url);
