import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One answer of the fake API, in the order requests arrive. */
export type Reply =
  /** A plain HTTP answer: an error body, say, with Retry-After. */
  | { status: number; headers?: Record<string, string>; json?: unknown }
  /**
   * A `text/event-stream` answer made of raw SSE frames (each written as given, e.g.
   * `data: {...}\n\n` or `event: x\ndata: {...}\n\n`). `drop` cuts the connection
   * after that many frames; `stall` stops writing after that many frames and
   * keeps the connection open; `delayMs` waits before each frame.
   */
  | { sse: string[]; drop?: number; stall?: number; delayMs?: number; headers?: Record<string, string> };

export type Received = { method: string; url: string; headers: IncomingHttpHeaders; body: any };

/** `framesWritten`: the SSE frames the server has handed to the socket so far, over every reply (a stalled reader stops it). */
export type FakeApi = { url: string; received: Received[]; framesWritten(): number; close(): Promise<void> };

/** `data: <json>\n\n` */
export const data = (value: unknown) => `data: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`;
/** `event: <name>\ndata: <json>\n\n` (Anthropic's framing) */
export const event = (name: string, value: unknown) => `event: ${name}\ndata: ${JSON.stringify(value)}\n\n`;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Cuts the connection once what was written has had time to reach the client. */
async function drop(res: ServerResponse) {
  await pause(50);
  res.socket?.destroy();
}

async function stream(res: ServerResponse, reply: Extract<Reply, { sse: string[] }>, onFrame: () => void) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', ...reply.headers });
  for (const [index, frame] of reply.sse.entries()) {
    if (reply.drop === index) return drop(res);
    if (reply.stall === index) return; // keep the connection open, say nothing more
    if (reply.delayMs) await pause(reply.delayMs);
    await new Promise((resolve) => res.write(frame, resolve));
    onFrame();
  }
  if (reply.drop === reply.sse.length) return drop(res);
  if (reply.stall === reply.sse.length) return;
  res.end();
}

/**
 * A real HTTP server on 127.0.0.1 that answers each request with the next reply
 * (the last one repeats) and records what it received, for provider tests.
 */
export async function fakeApi(replies: Reply[]): Promise<FakeApi> {
  const received: Received[] = [];
  let next = 0;
  let frames = 0;
  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        // keep the raw text
      }
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const reply = replies[Math.min(next++, replies.length - 1)];
      if (!reply) return res.writeHead(500).end();
      if ('sse' in reply) return void stream(res, reply, () => frames++);
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(reply.json === undefined ? '' : JSON.stringify(reply.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    framesWritten: () => frames,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
