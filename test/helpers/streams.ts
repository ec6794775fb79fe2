import { once } from 'node:events';
import type { Duplex } from 'node:stream';

/** Writes the chunks into a stage (respecting backpressure, taking each only when it is wanted), ends it, and returns everything it gave. */
export async function through<T = unknown>(stage: Duplex, chunks: Iterable<unknown>): Promise<T[]> {
  const out: T[] = [];
  const reading = (async () => {
    for await (const chunk of stage) out.push(chunk as T);
  })();
  for (const chunk of chunks) {
    if (!stage.write(chunk)) await Promise.race([once(stage, 'drain'), reading]);
  }
  stage.end();
  await reading;
  return out;
}

/** Like through(), but keeps what came out before a failure. */
export async function throughUntilError<T = unknown>(stage: Duplex, chunks: unknown[]): Promise<{ out: T[]; error?: Error }> {
  const out: T[] = [];
  const reading = (async () => {
    for await (const chunk of stage) out.push(chunk as T);
  })();
  try {
    for (const chunk of chunks) {
      if (stage.destroyed) break;
      if (!stage.write(chunk)) await Promise.race([once(stage, 'drain'), reading]);
    }
    if (!stage.destroyed) stage.end();
    await reading;
    return { out };
  } catch (error) {
    return { out, error: error as Error };
  }
}

/**
 * Writes the chunks into a stage one at a time, each once the one before was taken (its write callback), up to
 * the one that fails it; returns the bytes it took in, that chunk included.
 */
export async function writeUntilFailure(stage: Duplex, chunks: Iterable<Buffer>): Promise<number> {
  let taken = 0;
  for (const chunk of chunks) {
    const failed = await new Promise<boolean>((resolve) => stage.write(chunk, (error) => resolve(Boolean(error))));
    taken += chunk.length;
    if (failed || stage.errored) break;
  }
  return taken;
}

/** `whole` cut at the points `cuts` (each taken modulo its length + 1), for any chunking: the chunks, none empty. */
export function cutAt(whole: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (whole.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const point of [...points, whole.length]) {
    chunks.push(whole.subarray(from, point));
    from = point;
  }
  return chunks.filter((chunk) => chunk.length > 0);
}

/** All of a stream as UTF-8 text (a character split across chunks included). */
export async function readText(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}
