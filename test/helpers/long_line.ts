/**
 * RE2 is linear, but on random letters this pattern keeps about a thousand states alive per character: ~20 µs a
 * character on the test machine, over a minute for a 4 MB line. (On a line of one repeated letter RE2 caches its
 * states and is fast.)
 */
export const SLOW_PATTERN = '[a-m].{1,1000}[0-9]';

/** One line of 4 MB of pseudo-random lowercase letters, as in a minified bundle: no digit, so SLOW_PATTERN never matches. */
export function oneLongLine(): Buffer {
  const line = Buffer.alloc(4 * 1024 * 1024 + 1, '\n');
  let seed = 12345;
  for (let index = 0; index < line.length - 1; index++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    line[index] = 0x61 + ((seed >> 16) % 26);
  }
  return line;
}

/** The chunks of one line of `bytes` bytes of `x`, each freshly made, as input read from a pipe would be; no newline. */
export function* lineInChunks(bytes: number, chunkBytes = 64 * 1024): Generator<Buffer> {
  for (let left = bytes; left > 0; left -= chunkBytes) yield Buffer.alloc(Math.min(chunkBytes, left), 'x');
}

/** The chunks of each source in turn, each taken only when it is wanted. */
export function* chained(...sources: Iterable<Buffer>[]): Generator<Buffer> {
  for (const source of sources) yield* source;
}
