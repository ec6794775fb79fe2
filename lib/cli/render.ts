import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { UsageError } from '../errors.js';
import type { Framing, LogItem } from '../logs/framing.js';
import { frame } from '../../transforms/frame.js';
import { renderHtml } from '../render/html.js';
import { renderMarkdown } from '../render/markdown.js';
import { TranscriptBuilder, redactTranscript, type Transcript } from '../render/transcript.js';
import { logRedaction, runCommand } from './command.js';
import { checkFraming, openLog } from './log-source.js';
import { choice } from './options.js';
import type { CliIO } from './io.js';

export const RENDER_FORMATS = ['markdown', 'html'] as const;
export type RenderFormat = (typeof RENDER_FORMATS)[number];

export type RawRenderOptions = { format?: string; framing?: string };


/** Reads a log through the framing stage into a transcript (streaming: only the transcript is kept). */
export async function readTranscript(input: Readable, framing: Framing = 'auto'): Promise<Transcript> {
  const builder = new TranscriptBuilder();
  await pipeline(input, frame(framing), async (items: AsyncIterable<LogItem>) => {
    for await (const item of items) {
      if ('problem' in item) builder.addProblem(item.lineNo, item.problem);
      else builder.add(item.value, item.lineNo);
    }
  });
  return builder.finish();
}

/** The transcript in the chosen format. */
export function renderTranscript(transcript: Transcript, format: RenderFormat, options: { source?: string } = {}): string {
  const title = options.source ? `Zero transcript: ${options.source}` : 'Zero transcript';
  return format === 'html' ? renderHtml(transcript, { title }) : renderMarkdown(transcript, { title });
}

/** `zero render [file]`: a log as a Markdown or HTML transcript on stdout. */
export async function runRender(file: string | undefined, raw: RawRenderOptions, io: CliIO): Promise<void> {
  await runCommand(io, 'text', async () => {
    const format = choice('--format', raw.format ?? 'markdown', RENDER_FORMATS);
    const framing = checkFraming(raw.framing ?? 'auto');
    const stream = openLog(file, io.stdin);
    const name = file === undefined || file === '-' ? undefined : basename(file);
    if (stream === io.stdin && io.stdin.isTTY) throw new UsageError('No log to render. Give a FILE or pipe one on stdin.');
    let transcript: Transcript;
    try {
      transcript = await readTranscript(stream, framing);
    } catch (error) {
      throw error instanceof UsageError ? error : new UsageError(`Cannot read ${name ?? 'stdin'}: ${(error as Error).message}`);
    }
    const text = renderTranscript(redactTranscript(transcript, await logRedaction(io)), format, { source: name });
    return { readable: Readable.from([text]), exitCode: Promise.resolve(0) };
  });
}
