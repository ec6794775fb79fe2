import { once } from 'node:events';
import type { Duplex } from 'node:stream';

/** Writes the chunks into a stage (respecting backpressure), ends it, and returns everything it gave. */
export async function through<T = unknown>(stage: Duplex, chunks: unknown[]): Promise<T[]> {
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
