import type { Stats } from 'node:fs';
import { readlink, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { SandboxError } from '../errors.js';
import type { ToolContext } from './types.js';

/**
 * Resolves `path` (relative to `root`, or absolute) to its real absolute path, following symlinks,
 * and throws a SandboxError unless that real path is `root` itself or lies inside it.
 * The path need not exist yet: the nearest existing ancestor is resolved and the rest appended,
 * so a later write to the result cannot land outside `root`.
 */
export async function resolveInside(root: string, path: string): Promise<string> {
  const realRoot = await realpath(root);
  const target = await realpathAllowingMissing(resolve(realRoot, path));
  if (!isInside(realRoot, target)) throw refused(path, [root, realRoot], [], `Path "${path}" is outside the working directory.`, false);
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
  const extraRoots = await Promise.all((context.extraRoots ?? []).map((root) => realpathAllowingMissing(resolve(root))));
  if (extraRoots.some((root) => isInside(root, target))) return target;
  // An --add-dir can let a write tool reach a path outside; no flag lets it follow a symlink out.
  throw refused(path, [context.cwd, realCwd], [...(context.extraRoots ?? []), ...extraRoots], `Path "${path}" is outside the working directory and the --add-dir directories.`, true);
}

/**
 * The refusal of `path`, whose real path is outside the working directory (`cwd`, as given and real) and
 * every other root: symlink_traversal when the path as written lies inside one of them, so a symlink took it out.
 */
function refused(path: string, cwd: [string, string], otherRoots: string[], message: string, addDirHelps: boolean): SandboxError {
  const roots = [...cwd, ...otherRoots].map((root) => resolve(root));
  const traversal = cwd.some((base) => roots.some((root) => isInside(root, resolve(base, path))));
  return traversal ? new SandboxError('symlink_traversal', path, message, false) : new SandboxError('outside_workspace', path, message, addDirHelps);
}

/**
 * The files a write tool changes as tool_result.changedFiles and checkpoints name them (`realPaths` from
 * resolveWritable): relative to the working directory, or absolute for those in an --add-dir outside it.
 */
export async function changedFilePaths(context: ToolContext, realPaths: string[]): Promise<string[]> {
  const realCwd = await realpath(context.cwd);
  return [...new Set(realPaths.map((path) => (isInside(realCwd, path) ? displayPath(realCwd, path) : path)))];
}

/** The files a write tool would change for `paths` as the model gave them (see changedFilePaths); throws as resolveWritable does. */
export async function writeTargets(context: ToolContext, paths: string[]): Promise<string[]> {
  const realPaths: string[] = [];
  for (const path of paths) realPaths.push(await resolveWritable(context, path));
  return changedFilePaths(context, realPaths);
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
