import { Worker } from 'node:worker_threads';

/**
 * A worker thread running a TypeScript source. The tests run under tsx, whose loader a worker does not
 * inherit on Node 20, so the worker imports the source through tsx's own API (as lib/tools/grep_matcher.ts does).
 */
export function tsWorker(source: URL): Worker {
  return new Worker(`import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(source.href)}, ${JSON.stringify(import.meta.url)}))`, { eval: true });
}
