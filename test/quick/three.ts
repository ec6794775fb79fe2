import { runShard } from './shard.js';

await runShard(3, import.meta.url);
