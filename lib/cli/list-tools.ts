import type { OutputFormat } from '../../transforms/serialize.js';
import type { ToolListing } from '../tools/permissions.js';

/**
 * `--list-tools` in the chosen format: a table for people, one JSON object per
 * tool for scripts (snake_case for `json`, camelCase for `stream-json`). These
 * lines describe the tool set; they are not events of a run.
 */
export function formatToolListing(listing: ToolListing[], format: OutputFormat): string {
  const lines = listing.map((tool) => {
    if (format === 'json') return JSON.stringify({ type: 'tool', name: tool.name, side_effect: tool.sideEffect, permission: tool.permission, advertised: tool.advertised, reason: tool.reason });
    if (format === 'stream-json') return JSON.stringify({ type: 'tool', ...tool });
    return [tool.name.padEnd(16), tool.sideEffect.padEnd(7), tool.permission.padEnd(7), (tool.advertised ? 'on' : 'off').padEnd(4), tool.reason].join(' ');
  });
  return `${lines.join('\n')}\n`;
}
