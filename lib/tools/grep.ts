import { stat } from 'node:fs/promises';
import { basename, relative } from 'node:path';
import { globMatcher } from './glob_pattern.js';
import { startLineMatcher } from './grep_matcher.js';
import { compilePattern } from './grep_pattern.js';
import { MAX_OUTPUT_BYTES } from './output.js';
import { displayPath, resolveExisting, resolveInside } from './sandbox.js';
import { isBinaryFile } from './text_file.js';
import { formatLimit, SEARCH_TIME_LIMIT_MS, timeLimit } from './time_limit.js';
import type { Tool, ToolContext } from './types.js';
import { walkFiles } from './walk.js';

type GrepArgs = { pattern: string; path?: string; glob?: string };

/** grep with its time limit; tests pass a short one. */
export function createGrep(limitMs = SEARCH_TIME_LIMIT_MS): Tool<GrepArgs> {
  return {
    ...grepTool,
    async run(args, context) {
      const limit = timeLimit(context.signal, limitMs);
      const hits: string[] = [];
      try {
        await search(args, { ...context, signal: limit.signal }, hits);
      } catch (error) {
        if (!limit.expired) throw error;
        const soFar = hits.length > 0 ? `\nMatches so far:\n${hits.join('\n')}` : '';
        throw new Error(`grep stopped after ${formatLimit(limitMs)}, its time limit: search a narrower path or glob.${soFar}`);
      }
      return hits.length > 0 ? hits.join('\n') : `No matches for /${args.pattern}/ in "${args.path ?? '.'}".`;
    },
  };
}

const grepTool: Omit<Tool<GrepArgs>, 'run'> = {
  name: 'grep',
  description: `Search text files for lines matching a regular expression in RE2 syntax (no backreferences or lookahead; stops after ${formatLimit(SEARCH_TIME_LIMIT_MS)}); prints "path:line:text" for each match.`,
  parameters: {
    type: 'object',
    properties: {
      pattern: { type: 'string', minLength: 1, description: 'A regular expression in RE2 syntax (like JavaScript\'s, without backreferences or lookahead), without slashes or flags.' },
      path: { type: 'string', minLength: 1, description: 'File or directory to search, relative to the working directory (default ".").' },
      glob: { type: 'string', minLength: 1, description: 'Only search files matching this glob, e.g. "*.ts" or "src/**/*.ts" (relative to path).' },
    },
    required: ['pattern'],
    additionalProperties: false,
  },
  sideEffect: 'read',
  permission: 'allow',
};

export const grep: Tool<GrepArgs> = createGrep();

/** Appends "path:line:text" to `hits` for each matching line, until the output budget is spent. */
async function search(args: GrepArgs, context: ToolContext, hits: string[]): Promise<void> {
  compilePattern(args.pattern); // an invalid pattern fails here, before any file is read
  const root = await resolveInside(context.cwd, '.');
  const searchPath = args.path ?? '.';
  const { path, stats } = await resolveExisting(context.cwd, searchPath);
  let files: AsyncIterable<string> | string[];
  if (stats.isDirectory()) {
    files = searchableFilesUnder(root, path, args.glob, context.signal);
  } else {
    if (await isBinaryFile(path)) throw new Error(`"${searchPath}" is a binary file; grep searches text only.`);
    files = [path];
  }

  const matcher = startLineMatcher(args.pattern, context.signal);
  try {
    let hitBytes = 0;
    for await (const file of files) {
      const request = { path: file, displayPath: displayPath(root, file), budgetBytes: MAX_OUTPUT_BYTES - hitBytes };
      hitBytes += await matcher.matchFile(request, (hit) => hits.push(hit));
      // The registry truncates anything past the budget, so stop searching there.
      if (hitBytes > MAX_OUTPUT_BYTES) return;
    }
  } finally {
    matcher.close();
  }
}

/** A glob without "/" matches the file name in any directory; one with "/" matches the path. */
function fileFilter(glob: string | undefined): (relativePath: string) => boolean {
  if (!glob) return () => true;
  const matches = globMatcher(glob);
  // picomatch's own `basename` option would match only the file name even for "lib/*".
  return glob.includes('/') ? matches : (relativePath) => matches(basename(relativePath));
}

/** Text files under `directory` that pass the glob filter and really live inside `root`. */
async function* searchableFilesUnder(root: string, directory: string, glob: string | undefined, signal: AbortSignal): AsyncGenerator<string> {
  const wanted = fileFilter(glob);
  for await (const file of walkFiles(directory, signal)) {
    if (!wanted(relative(directory, file))) continue;
    const realFile = await resolveInside(root, file).catch(() => undefined);
    // Skips symlinks pointing outside the working directory or at directories, and files that vanished or are unreadable.
    if (realFile !== undefined && (await isTextFile(realFile).catch(() => false))) yield file;
  }
}

/** The stat comes first because opening a FIFO to sniff it would block until something writes to it. */
async function isTextFile(path: string): Promise<boolean> {
  return (await stat(path)).isFile() && !(await isBinaryFile(path));
}
