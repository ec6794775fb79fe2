import type { Stats } from 'node:fs';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

/**
 * Replaces the file at `path` with `content` through a temporary file in the same folder and a rename:
 * a crash or a full disk never leaves a half-written file, and the old inode (which a hard link may share)
 * is never written to. `existing` (the stats of the file being replaced) keeps its mode and, where allowed,
 * its owner; a new file gets the default mode, 0666 less the umask.
 */
export async function writeFileAtomic(path: string, content: string, existing: Stats | undefined, signal?: AbortSignal): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.zero-tmp`);
  const file = await open(temporary, 'wx', 0o666);
  try {
    try {
      await file.writeFile(content, 'utf8');
      if (existing) await keepOwnership(file, existing);
      await file.sync();
    } finally {
      await file.close();
    }
    signal?.throwIfAborted();
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

async function keepOwnership(file: FileHandle, existing: Stats): Promise<void> {
  // The owner is restored where allowed (root, or a group of the user's); otherwise the file becomes the writer's,
  // as with any editor that saves by rename. chown may clear set-id bits, so chmod comes after it.
  await file.chown(existing.uid, existing.gid).catch(() => undefined);
  // Set explicitly: the umask applied when the temporary file was created may have taken bits the file had.
  await file.chmod(existing.mode & 0o7777);
}
