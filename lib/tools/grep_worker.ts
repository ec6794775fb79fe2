import { parentPort } from 'node:worker_threads';
import type { RE2JS } from 're2js';
import { compilePattern } from './grep_pattern.js';
import { readLines } from './text_file.js';

// The worker thread behind grep (see grep_matcher.ts): it reads and matches the files it is sent, one at a time.

/** Search one file for `pattern`, each hit as "<displayPath>:line:text", until the hits pass `budgetBytes`. */
export type MatchRequest = { pattern: string; path: string; displayPath: string; budgetBytes: number };

/** Each hit as found, then how many bytes of hits the file gave (or why it could not be read). */
export type MatchReply = { hit: string } | { done: true; hitBytes: number } | { error: string };

const port = parentPort!;
/** The files of one search share a pattern: compile it once. */
let compiled: { pattern: string; regex: RE2JS } | undefined;

port.on('message', (request: MatchRequest) => {
  matchFile(request).then(
    (hitBytes) => reply({ done: true, hitBytes }),
    (error: unknown) => reply({ error: error instanceof Error ? error.message : String(error) }),
  );
});

function reply(message: MatchReply): void {
  port.postMessage(message);
}

async function matchFile({ pattern, path, displayPath, budgetBytes }: MatchRequest): Promise<number> {
  if (compiled?.pattern !== pattern) compiled = { pattern, regex: compilePattern(pattern) };
  const { regex } = compiled;
  let hitBytes = 0;
  let lineNo = 0;
  for await (const line of readLines(path)) {
    lineNo++;
    if (!regex.test(line)) continue;
    const hit = `${displayPath}:${lineNo}:${line}`;
    reply({ hit });
    hitBytes += Buffer.byteLength(hit) + 1;
    if (hitBytes > budgetBytes) break;
  }
  return hitBytes;
}
