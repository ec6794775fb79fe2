import { rm } from 'node:fs/promises';
import { UsageError } from '../errors.js';
import { acquireLock } from './lock.js';
import { listSessions } from './catalog.js';
import { openSession } from './store.js';

/** Deletes a session's folder. Unknown ids and sessions a live run holds (its lock) are refused with a UsageError. */
export async function removeSession(root: string, id: string): Promise<void> {
  const session = await openSession(root, id);
  // taken and never given back: the folder, lock file included, goes
  await acquireLock(session.dir, id);
  await rm(session.dir, { recursive: true, force: true });
}

export type PruneReport = { removed: string[]; inUse: string[] };

/** Removes every session last updated before `before`; one that a run holds is left, and named. */
export async function pruneSessions(root: string, before: Date): Promise<PruneReport> {
  const report: PruneReport = { removed: [], inUse: [] };
  for (const session of await listSessions(root)) {
    if (!(Date.parse(session.updatedAt) < before.getTime())) continue;
    try {
      await removeSession(root, session.id);
      report.removed.push(session.id);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      report.inUse.push(session.id);
    }
  }
  return report;
}
