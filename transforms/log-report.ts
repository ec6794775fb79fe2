import type { Transform } from 'node:stream';
import type { LogItem } from '../lib/logs/framing.js';
import { createLogReport, type LogCheckOptions, type LogSummary } from '../lib/logs/validate.js';
import { stepStream } from '../lib/streams.js';

/**
 * LogItems → the validation report of a log (schema of each line's version, the order rules per run):
 * problem lines as they are found, then a summary; `done` is that summary, once the report has ended.
 */
export function logReport(options: LogCheckOptions = {}): { stream: Transform; done: Promise<LogSummary> } {
  const report = createLogReport(options);
  const stream = stepStream<LogItem, string>(report, { readableObjectMode: false });
  const done = new Promise<LogSummary>((resolve, reject) => stream.on('finish', () => resolve(report.summary()!)).on('error', reject));
  return { stream, done };
}
