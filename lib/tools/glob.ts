import { isAbsolute } from 'node:path';
import { glob as findFiles } from 'tinyglobby';
import { resolveInside } from './sandbox.js';
import type { Tool } from './types.js';
import { IGNORED_DIRECTORIES } from './walk.js';

type GlobArgs = { pattern: string };

export const glob: Tool<GlobArgs> = {
  name: 'glob',
  description: 'Find files under the working directory by glob pattern (e.g. "src/**/*.ts"); prints matching paths, sorted.',
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
    const root = await resolveInside(context.cwd, '.');
    const matches = await findFiles(pattern, {
      cwd: root,
      dot: true,
      onlyFiles: true,
      followSymbolicLinks: false,
      ignore: IGNORED_DIRECTORIES.map((name) => `**/${name}/**`),
      signal: context.signal,
    });
    // tinyglobby returns what it found so far when aborted, rather than throwing.
    context.signal.throwIfAborted();
    // tinyglobby starts its crawl at the pattern's static prefix even when that is a symlinked directory
    // ("escape/*"), and brace expansion can hide a ".." ("{..,src}/*"): so check where each result really is.
    const inside = await Promise.all(matches.map((file) => resolveInside(root, file).then(() => true, () => false)));
    const files = matches.filter((_, index) => inside[index]).sort();
    return files.length > 0 ? files.join('\n') : `No files match "${pattern}".`;
  },
};
