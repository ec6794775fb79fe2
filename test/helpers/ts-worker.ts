import { Worker } from 'node:worker_threads';
import { ownModule } from './repo.js';

/**
 * A worker thread running one of the repository's modules (`lib/tools/grep_worker`). Under tsx, whose loader a
 * worker does not inherit on Node 20, the worker imports the source through tsx's own API (as
 * lib/tools/grep_matcher.ts does); compiled, it runs the build.
 */
export function tsWorker(path: string): Worker {
  const url = ownModule(path);
  if (!url.endsWith('.ts')) return new Worker(new URL(url));
  return new Worker(`import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(url)}, ${JSON.stringify(import.meta.url)}))`, { eval: true });
}
