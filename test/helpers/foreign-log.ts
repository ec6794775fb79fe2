import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { foreignLog } from '../../bench/foreign-log.js';

/** An id of another program's form, which the output schema accepts (a letter or digit, then `_ . : -` among them). */
export const FOREIGN_RUN_ID = 'ci-7f3a:job.12';

/** A small log of another program (bench/foreign-log.ts: 10 runs of 60 events, `sess_…` session ids), its last run renamed FOREIGN_RUN_ID. */
export function writeForeignLog(dir: string): { file: string; runs: number; lastRun: string[] } {
  const text = foreignLog({ events: 600, seed: 7 }).bytes.toString('utf8');
  const lastRunId = /"runId":"([^"]+)"[^\n]*\n$/.exec(text)![1]!;
  const renamed = text.replaceAll(`"runId":"${lastRunId}"`, `"runId":"${FOREIGN_RUN_ID}"`);
  const file = join(dir, 'foreign.jsonl');
  writeFileSync(file, renamed);
  return { file, runs: 10, lastRun: renamed.split('\n').filter((line) => line.includes(`"runId":"${FOREIGN_RUN_ID}"`)) };
}
