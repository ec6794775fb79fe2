import { basename } from 'node:path';
import { UsageError } from '../errors.js';
import { renderChain } from '../pipeline.js';
import { RENDER_FORMATS } from '../render/format.js';
import { logRedaction, runChain, runCommand } from './command.js';
import { checkFraming, openLog } from './log-source.js';
import { choice } from './options.js';
import type { CliIO } from './io.js';

export type RawRenderOptions = { outputFormat?: string; framing?: string };

/** `zero render [file]`: a log as a Markdown or HTML transcript on stdout, written as the log is read. */
export async function runRender(file: string | undefined, raw: RawRenderOptions, io: CliIO): Promise<void> {
  await runCommand(io, 'text', async () => {
    const format = choice('--output-format', raw.outputFormat ?? 'markdown', RENDER_FORMATS);
    const framing = checkFraming(raw.framing ?? 'auto');
    const source = openLog(file, io.stdin);
    if (source === io.stdin && io.stdin.isTTY) throw new UsageError('No log to render. Give a FILE or pipe one on stdin.');
    const name = file === undefined || file === '-' ? undefined : basename(file);
    return runChain(io, 'text', source, renderChain({ framing, format, redaction: await logRedaction(io), source: name }), () => 0);
  });
}
