import type { Stats } from 'node:fs';
import { readlink, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { ToolContext } from './types.js';

/**
 * Resolves `path` (relative to `root`, or absolute) to its real absolute path, following symlinks,
 * and throws unless that real path is `root` itself or lies inside it.
 * The path need not exist yet: the nearest existing ancestor is resolved and the rest appended,
 * so a later write to the result cannot land outside `root`.
 */
export async function resolveInside(root: string, path: string): Promise<string> {
  const realRoot = await realpath(root);
  const target = await realpathAllowingMissing(resolve(realRoot, path));
  if (!isInside(realRoot, target)) throw new Error(`Path "${path}" is outside the working directory.`);
  return target;
}

/**
 * Resolves `path` (relative to context.cwd, or absolute) for a tool that changes files: like resolveInside,
 * but the real path may lie inside context.cwd or inside any of context.extraRoots (the --add-dir directories).
 */
export async function resolveWritable(context: ToolContext, path: string): Promise<string> {
  const realCwd = await realpath(context.cwd);
  const target = await realpathAllowingMissing(resolve(realCwd, path));
  if (isInside(realCwd, target)) return target;
  for (const root of context.extraRoots ?? []) {
    if (isInside(await realpathAllowingMissing(resolve(root)), target)) return target;
  }
  throw new Error(`Path "${path}" is outside the working directory and the --add-dir directories.`);
}

/** Like resolveInside, for a path that must already exist: also returns what it is. */
export async function resolveExisting(root: string, path: string): Promise<{ path: string; stats: Stats }> {
  const resolved = await resolveInside(root, path);
  try {
    return { path: resolved, stats: await stat(resolved) };
  } catch (error) {
    if (isMissing(error)) throw new Error(`Path "${path}" does not exist.`);
    throw error;
  }
}

/** Whether `path` is `root` or below it; both must be absolute and normalized. */
export function isInside(root: string, path: string): boolean {
  const fromRoot = relative(root, path);
  return fromRoot === '' || (fromRoot !== '..' && !fromRoot.startsWith(`..${sep}`) && !isAbsolute(fromRoot));
}

/** `path` as shown to the model: relative to `realRoot` (both real paths), "." for the root itself. */
export function displayPath(realRoot: string, path: string): string {
  return relative(realRoot, path).split(sep).join('/') || '.';
}

async function realpathAllowingMissing(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  // A dangling symlink must be judged by where it points, not where it sits.
  const linkTarget = await readlink(path).catch(() => undefined);
  if (linkTarget !== undefined) return realpathAllowingMissing(resolve(dirname(path), linkTarget));
  const parent = dirname(path);
  if (parent === path) return path;
  return join(await realpathAllowingMissing(parent), basename(path));
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
