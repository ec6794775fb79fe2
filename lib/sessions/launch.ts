import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { NO_FOLLOW, PRIVATE_FILE_MODE, openError } from './folders.js';
import type { SessionMetadata } from './metadata.js';
import { LAUNCH_FILE } from './paths.js';

/**
 * What metadata.json holds redacted (a secret in the path or the profile's name) but --resume needs as it was:
 * kept beside it in launch.json (0600, like every session file), which nothing prints.
 */
export type PrivateLaunch = { cwd?: string; profile?: string; script?: string };

/** What --resume without an id matches a working directory by when metadata.json's cwd is redacted. */
export const cwdHash = (cwd: string): string => createHash('sha256').update(resolve(cwd)).digest('hex');

/** Whether a session ran in `cwd` (resolved): by the hash when its metadata's cwd is redacted. */
export const ranIn = (metadata: Pick<SessionMetadata, 'cwd' | 'cwdHash'>, cwd: string): boolean =>
  metadata.cwdHash ? metadata.cwdHash === cwdHash(cwd) : resolve(metadata.cwd) === resolve(cwd);

/** The fields of `real` that `stored` (the metadata as redacted) does not hold as they are. */
export function hiddenFields(real: PrivateLaunch, stored: Pick<SessionMetadata, 'cwd' | 'profile' | 'script'>): PrivateLaunch {
  const hidden: PrivateLaunch = {};
  for (const field of ['cwd', 'profile', 'script'] as const) if (real[field] !== undefined && real[field] !== stored[field]) hidden[field] = real[field];
  return hidden;
}

/** Writes launch.json in a new session's folder (nothing when nothing is hidden). */
export async function writeLaunch(dir: string, launch: PrivateLaunch): Promise<void> {
  if (Object.keys(launch).length === 0) return;
  await writeFile(join(dir, LAUNCH_FILE), `${JSON.stringify(launch)}\n`, { flag: 'wx', mode: PRIVATE_FILE_MODE });
}

/** The session's hidden launch fields; none when it has no launch.json (or an unreadable one: the metadata's then). */
export async function readLaunch(dir: string): Promise<PrivateLaunch> {
  const file = join(dir, LAUNCH_FILE);
  let text;
  try {
    text = await readFile(file, { encoding: 'utf8', flag: NO_FOLLOW.read });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw openError(file, error);
  }
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    const launch: PrivateLaunch = {};
    for (const field of ['cwd', 'profile', 'script'] as const) if (typeof value[field] === 'string') launch[field] = value[field];
    return launch;
  } catch {
    return {};
  }
}
