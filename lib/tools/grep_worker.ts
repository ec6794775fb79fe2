import { parentPort } from 'node:worker_threads';
import type { RE2JS } from 're2js';
import { NotRegularFileError, type OpenFile } from '../files/open.js';
import { compilePattern } from './grep_pattern.js';
import { capOutput } from './output.js';
import { openTextFile, readLines } from './text_file.js';

// The worker thread behind grep (see grep_matcher.ts): it reads and matches the files it is sent, one at a time.

/**
 * Search one file for `pattern`, each hit as "<displayPath>:line:text", until the hits pass `budgetBytes`; a line
 * longer than `maxLineBytes` is searched in its first `maxLineBytes` only, so that no line is ever held whole.
 */
export type MatchRequest = { pattern: string; path: string; displayPath: string; budgetBytes: number; maxLineBytes: number };

/**
 * Why a file was not searched: binary, a directory (a symlink to one), a special file (FIFO, socket, device: its
 * kind), or it could not be opened (a dangling symlink, no permission, gone since the walk saw it: why).
 */
export type Skipped = { reason: 'binary' } | { reason: 'directory' } | { reason: 'special'; kind: string } | { reason: 'unopened'; message: string };

/** How a file's search went: the bytes its hits took, or why it was skipped; the lines searched only in part. */
export type MatchDone = { hitBytes: number; skipped?: Skipped; longLines?: { count: number; first: number } };

/** Each hit as found, then how the file's search went (or why it could not be read). */
export type MatchReply = { hit: string } | ({ done: true } & MatchDone) | { error: string };

const port = parentPort!;
/** The files of one search share a pattern: compile it once. */
let compiled: { pattern: string; regex: RE2JS } | undefined;

port.on('message', (request: MatchRequest) => {
  matchFile(request).then(
    (done) => reply({ done: true, ...done }),
    (error: unknown) => reply({ error: error instanceof Error ? error.message : String(error) }),
  );
});

function reply(message: MatchReply): void {
  port.postMessage(message);
}

async function matchFile({ pattern, path, displayPath, budgetBytes, maxLineBytes }: MatchRequest): Promise<MatchDone> {
  if (compiled?.pattern !== pattern) compiled = { pattern, regex: compilePattern(pattern) };
  const { regex } = compiled;
  let file: OpenFile | undefined;
  try {
    file = await openTextFile(path, displayPath);
  } catch (error) {
    if (!(error instanceof NotRegularFileError)) return { hitBytes: 0, skipped: { reason: 'unopened', message: error instanceof Error ? error.message : String(error) } };
    return { hitBytes: 0, skipped: error.stats.isDirectory() ? { reason: 'directory' } : { reason: 'special', kind: error.kind } };
  }
  if (!file) return { hitBytes: 0, skipped: { reason: 'binary' } };
  let hitBytes = 0;
  let lineNo = 0;
  let longLines: MatchDone['longLines'];
  for await (const line of readLines(file.fd, { maxLineBytes })) {
    lineNo++;
    if (line.cut) longLines = { count: (longLines?.count ?? 0) + 1, first: longLines?.first ?? lineNo };
    if (!regex.test(line.text)) continue;
    // A hit past the budget ends the output, which the registry cuts (and flags) at the budget anyway.
    const hit = capOutput(`${displayPath}:${lineNo}:${line.text}`, budgetBytes + 1).output;
    reply({ hit });
    hitBytes += Buffer.byteLength(hit) + 1;
    if (hitBytes > budgetBytes) break;
  }
  return { hitBytes, ...(longLines ? { longLines } : {}) };
}
