import { stat } from 'node:fs/promises';
import { basename, relative } from 'node:path';
import picomatch from 'picomatch';
import { MAX_OUTPUT_BYTES } from './output.js';
import { displayPath, resolveExisting, resolveInside } from './sandbox.js';
import { isBinaryFile, readLines } from './text_file.js';
import type { Tool } from './types.js';
import { walkFiles } from './walk.js';

type GrepArgs = { pattern: string; path?: string; glob?: string };

export const grep: Tool<GrepArgs> = {
  name: 'grep',
  description: 'Search text files for lines matching a JavaScript regular expression; prints "path:line:text" for each match.',
  parameters: {
    type: 'object',
    properties: {
      pattern: { type: 'string', minLength: 1, description: 'A JavaScript regular expression, without slashes or flags.' },
      path: { type: 'string', minLength: 1, description: 'File or directory to search, relative to the working directory (default ".").' },
      glob: { type: 'string', minLength: 1, description: 'Only search files matching this glob, e.g. "*.ts" or "src/**/*.ts" (relative to path).' },
    },
    required: ['pattern'],
    additionalProperties: false,
  },
  sideEffect: 'read',
  permission: 'allow',
  async run(args, context) {
    const regex = compile(args.pattern);
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

    const hits: string[] = [];
    let hitBytes = 0;
    search: for await (const file of files) {
      let lineNo = 0;
      for await (const line of readLines(file, context.signal)) {
        lineNo++;
        if (!regex.test(line)) continue;
        const hit = `${displayPath(root, file)}:${lineNo}:${line}`;
        hits.push(hit);
        hitBytes += Buffer.byteLength(hit) + 1;
        // The registry truncates anything past the budget, so stop searching there.
        if (hitBytes > MAX_OUTPUT_BYTES) break search;
      }
    }
    return hits.length > 0 ? hits.join('\n') : `No matches for /${args.pattern}/ in "${searchPath}".`;
  },
};

function compile(pattern: string): RegExp {
  try {
    return new RegExp(pattern);
  } catch (error) {
    throw new Error(`Invalid regular expression "${pattern}": ${(error as Error).message}`);
  }
}

/** A glob without "/" matches the file name in any directory; one with "/" matches the path. */
function fileFilter(glob: string | undefined): (relativePath: string) => boolean {
  if (!glob) return () => true;
  const matches = picomatch(glob, { dot: true });
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
