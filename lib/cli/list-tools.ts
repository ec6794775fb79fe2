import type { OutputFormat } from '../output/serializer.js';
import type { Event } from '../protocol/types.js';
import type { ToolListing } from '../tools/permissions.js';

/**
 * `--list-tools` as `text` (a table for people) or `json` (one snake_case
 * object per tool for scripts). These lines describe the tool set; they are
 * not events of a run: in stream-json the listing is a run (toolListingRun).
 */
export function formatToolListing(listing: ToolListing[], format: Exclude<OutputFormat, 'stream-json'>): string {
  const width = Math.max(16, ...listing.map((tool) => tool.name.length));
  const lines = listing.flatMap((tool, index) => {
    const { server } = tool;
    if (format === 'json') return [JSON.stringify({ type: 'tool', name: tool.name, side_effect: tool.sideEffect, permission: tool.permission, advertised: tool.advertised, reason: tool.reason, ...(server ? { server } : {}) })];
    const line = [tool.name.padEnd(width), tool.sideEffect.padEnd(7), tool.permission.padEnd(7), (tool.advertised ? 'on' : 'off').padEnd(4), tool.reason].join(' ');
    // an MCP server's tools come together, under its name
    return server && listing[index - 1]?.server !== server ? [`MCP server ${server}:`, line] : [line];
  });
  return `${lines.join('\n')}\n`;
}

/** The warnings a run would begin with (unsafe permissions, a shell without a sandbox), as exec gives them: on stderr for text, as lines for json. */
export function listingWarnings(warnings: string[], format: 'text' | 'json', io: { stderr: { write(text: string): unknown } }): string[] {
  if (format === 'json') return warnings.map((message) => `${JSON.stringify({ type: 'warning', message })}\n`);
  for (const message of warnings) io.stderr.write(`[zero] WARNING: ${message}\n`);
  return [];
}

export type ListingRun = { cwd: string; provider: string; model: string; warnings: string[] };

/**
 * `--list-tools -o stream-json` speaks the protocol (docs/protocol.md §10):
 * `run_start` (nothing is recorded: no sessionId), the warnings, one `final`
 * whose text is the table `-o text` prints; the output chain adds `run_end`.
 */
export function toolListingRun(listing: ToolListing[], { cwd, provider, model, warnings }: ListingRun): Event[] {
  return [
    { type: 'run_start', cwd, provider, model },
    ...warnings.map((message): Event => ({ type: 'warning', message })),
    { type: 'final', text: formatToolListing(listing, 'text') },
  ];
}
