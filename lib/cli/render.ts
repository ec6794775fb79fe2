import { basename } from 'node:path';
import { UsageError } from '../errors.js';
import { renderChain } from '../log-chains.js';
import { RENDER_FORMATS } from '../render/format.js';
import { logRedaction, runChain, runCommand } from './command.js';
import { logFraming, openLogs, readsStdin, type RawLogFraming } from './log-source.js';
import { choice } from './option-values.js';
import type { CliIO } from './io.js';

export type RawRenderOptions = RawLogFraming & { outputFormat?: string };

/** What the transcript is of, for its title: its file's name (a session folder's), or a few of them. */
export function sourceName(files: readonly string[]): string | undefined {
  if (files.length === 0 || (files.length === 1 && files[0] === '-')) return undefined;
  if (files.length > 3) return `${files.length} logs`;
  return files.map((file) => (file === '-' ? 'stdin' : basename(file))).join(', ');
}

/** `zero render [FILE...]`: a log (several files read as one) as a Markdown, HTML or plain-text transcript on stdout, written as it is read. */
export async function runRender(files: string[], raw: RawRenderOptions, io: CliIO): Promise<void> {
  await runCommand(io, 'text', async () => {
    const format = choice('--output-format', raw.outputFormat ?? 'markdown', RENDER_FORMATS);
    if (readsStdin(files) && io.stdin.isTTY) throw new UsageError('No log to render. Give a FILE or pipe one on stdin.');
    const source = openLogs(files, io.stdin);
    return runChain(io, 'text', source, renderChain({ ...logFraming(raw), format, redaction: await logRedaction(io), source: sourceName(files) }), () => 0);
  });
}
