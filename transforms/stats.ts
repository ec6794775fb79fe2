import type { Transform } from 'node:stream';
import type { LogItem } from '../lib/logs/framing.js';
import { createStatsReport, type StatsFormat } from '../lib/logs/stats.js';
import type { RedactOptions } from '../lib/redaction/index.js';
import { stepStream } from '../lib/streams.js';

/** LogItems → per-run totals, written at the end of the log: a text table, or one JSON object per run (json: snake_case; stream-json: camelCase). */
export function stats(format: StatsFormat = 'text', redaction?: RedactOptions): Transform {
  return stepStream<LogItem, string>(createStatsReport(format, redaction), { readableObjectMode: false });
}
