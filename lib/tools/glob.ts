import { isAbsolute } from 'node:path';
import { glob as findFiles } from 'tinyglobby';
import { checkGlobComplexity, MAX_GLOBSTARS, MAX_STARS_PER_SEGMENT } from './glob_pattern.js';
import { resolveInside } from './sandbox.js';
import { formatLimit, SEARCH_TIME_LIMIT_MS, timeLimit } from './time_limit.js';
import type { Tool } from './types.js';
import { IGNORED_DIRECTORIES } from './walk.js';

type GlobArgs = { pattern: string };

/** glob with its time limit; tests pass a short one. */
export function createGlob(limitMs = SEARCH_TIME_LIMIT_MS): Tool<GlobArgs> {
  return {
    name: 'glob',
    description: `Find files under the working directory by glob pattern (e.g. "src/**/*.ts"); prints matching paths, sorted. At most ${MAX_STARS_PER_SEGMENT} "*" per path segment and ${MAX_GLOBSTARS} "**", no extglobs; stops after ${formatLimit(SEARCH_TIME_LIMIT_MS)}.`,
    parameters: {
      type: 'object',
      properties: {
        pattern: { type: 'string', minLength: 1, description: 'A glob pattern relative to the working directory.' },
      },
      required: ['pattern'],
      additionalProperties: false,
    },
    sideEffect: 'read',
    permission: 'allow',
    async run(args, context) {
      const { pattern } = args;
      if (isAbsolute(pattern) || pattern.split(/[\\/]/).includes('..')) {
        throw new Error(`Pattern "${pattern}" must stay inside the working directory: no absolute paths or ".." segments.`);
      }
      checkGlobComplexity(pattern);
      const root = await resolveInside(context.cwd, '.');
      const limit = timeLimit(context.signal, limitMs);
      const matches = await findFiles(pattern, {
        cwd: root,
        dot: true,
        // Extglobs compile to nested quantifiers ("+(a*)"), which backtrack catastrophically.
        extglob: false,
        onlyFiles: true,
        followSymbolicLinks: false,
        ignore: IGNORED_DIRECTORIES.map((name) => `**/${name}/**`),
        signal: limit.signal,
      });
      // tinyglobby returns what it found so far when aborted, rather than throwing.
      if (limit.expired) throw new Error(`glob stopped after ${formatLimit(limitMs)}, its time limit: use a pattern with a longer fixed prefix.`);
      context.signal.throwIfAborted();
      // tinyglobby starts its crawl at the pattern's static prefix even when that is a symlinked directory
      // ("escape/*"), and brace expansion can hide a ".." ("{..,src}/*"): so check where each result really is.
      const inside = await Promise.all(matches.map((file) => resolveInside(root, file).then(() => true, () => false)));
      const files = matches.filter((_, index) => inside[index]).sort();
      return files.length > 0 ? files.join('\n') : `No files match "${pattern}".`;
    },
  };
}

export const glob: Tool<GlobArgs> = createGlob();
