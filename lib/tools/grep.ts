import { basename, relative } from 'node:path';
import { globMatcher } from './glob_pattern.js';
import { startLineMatcher } from './grep_matcher.js';
import { compilePattern } from './grep_pattern.js';
import { capOutput, MAX_OUTPUT_BYTES } from './output.js';
import { displayPath, resolveExisting, resolveInside } from './sandbox.js';
import { formatLimit, SEARCH_TIME_LIMIT_MS, timeLimit } from './time_limit.js';
import type { Tool, ToolContext, ToolRunResult } from './types.js';
import { listed, skippedSpecialFiles, walkFiles } from './walk.js';
import type { Skipped } from './grep_worker.js';
import { NotRegularFileError } from '../files/open.js';

type GrepArgs = { pattern: string; path?: string; glob?: string };

/** Lines longer than this are searched in their first this-many bytes: a line is never held whole, however long. */
export const MAX_SEARCHED_LINE_BYTES = 16 * 1024 * 1024;

/** grep with its time limit; tests pass a short one. */
export function createGrep(limitMs = SEARCH_TIME_LIMIT_MS): Tool<GrepArgs, ToolRunResult> {
  return {
    ...grepTool,
    async run(args, context) {
      const limit = timeLimit(context.signal, limitMs);
      const findings: Findings = { hits: [], special: [], longLines: [] };
      const { hits } = findings;
      try {
        await search(args, { ...context, signal: limit.signal }, findings);
      } catch (error) {
        if (!limit.expired) throw error;
        const soFar = hits.length > 0 ? `\nMatches so far:\n${hits.join('\n')}` : '';
        throw new Error(`grep stopped after ${formatLimit(limitMs)}, its time limit: search a narrower path or glob.${soFar}`);
      }
      return report(hits.length > 0 ? hits.join('\n') : `No matches for /${args.pattern}/ in "${args.path ?? '.'}".`, notesOn(findings));
    },
  };
}

const grepTool: Omit<Tool<GrepArgs, ToolRunResult>, 'run'> = {
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

export const grep: Tool<GrepArgs, ToolRunResult> = createGrep();

/**
 * What a search found: the hits, and what it did not search whole: the special files it skipped ("path (kind)"),
 * and where lines too long to hold were searched in part ("path:line").
 */
type Findings = { hits: string[]; special: string[]; longLines: string[] };

/** Appends "path:line:text" to `hits` for each matching line, until the output budget is spent. */
async function search(args: GrepArgs, context: ToolContext, { hits, special, longLines }: Findings): Promise<void> {
  compilePattern(args.pattern); // an invalid pattern fails here, before any file is read
  const root = await resolveInside(context.cwd, '.');
  const searchPath = args.path ?? '.';
  const { path, stats } = await resolveExisting(context.cwd, searchPath);
  const walking = stats.isDirectory();
  // A path named directly is refused at once when it is no regular file; in a walk, the worker finds out (race-free).
  if (!walking && !stats.isFile()) throw new NotRegularFileError(searchPath, stats);
  const files = walking ? filesUnder(root, path, args.glob, context.signal) : [path];

  const matcher = startLineMatcher(args.pattern, context.signal);
  try {
    let hitBytes = 0;
    for await (const file of files) {
      const shown = displayPath(root, file);
      const done = await matcher.matchFile({ path: file, displayPath: shown, budgetBytes: MAX_OUTPUT_BYTES - hitBytes, maxLineBytes: MAX_SEARCHED_LINE_BYTES }, (hit) => hits.push(hit));
      if (done.skipped && !walking) throw skippedFile(searchPath, done.skipped);
      if (done.skipped?.reason === 'special') special.push(`${shown} (${done.skipped.kind})`);
      if (done.longLines) longLines.push(`${shown}:${done.longLines.first}${done.longLines.count > 1 ? ` (and ${done.longLines.count - 1} more lines)` : ''}`);
      hitBytes += done.hitBytes;
      // The registry truncates anything past the budget, so stop searching there.
      if (hitBytes > MAX_OUTPUT_BYTES) return;
    }
  } finally {
    matcher.close();
  }
}

/** A file named directly that the worker would not search (a special one was checked first, so it was swapped in since). */
function skippedFile(searchPath: string, skipped: Skipped): Error {
  if (skipped.reason === 'binary') return new Error(`"${searchPath}" is a binary file; grep searches text only.`);
  if (skipped.reason === 'unopened') return new Error(skipped.message);
  return new Error(`"${searchPath}" is now ${skipped.reason === 'directory' ? 'a directory' : skipped.kind}: grep searches regular text files only.`);
}

/** What the output says after the hits about what was not searched whole. */
function notesOn({ special, longLines }: Findings): string[] {
  const mib = `${MAX_SEARCHED_LINE_BYTES / (1024 * 1024)} MiB`;
  return [
    ...(special.length ? [skippedSpecialFiles(special)] : []),
    ...(longLines.length ? [`(Lines longer than ${mib} were searched in their first ${mib} only: ${listed(longLines)}.)`] : []),
  ];
}

/** Room kept at the end of the output for the notes, so that hits filling the output never cut them off. */
const NOTES_ROOM = 4096;

function report(body: string, notes: string[]): ToolRunResult {
  if (notes.length === 0) return body;
  const tail = capOutput(notes.join('\n'), NOTES_ROOM).output;
  const head = capOutput(body, MAX_OUTPUT_BYTES - Buffer.byteLength(tail) - 1);
  const output = `${head.output}\n${tail}`;
  return head.truncated ? { output, truncated: true } : output;
}

/** A glob without "/" matches the file name in any directory; one with "/" matches the path. */
function fileFilter(glob: string | undefined): (relativePath: string) => boolean {
  if (!glob) return () => true;
  const matches = globMatcher(glob);
  // picomatch's own `basename` option would match only the file name even for "lib/*".
  return glob.includes('/') ? matches : (relativePath) => matches(basename(relativePath));
}

/** The files under `directory` that pass the glob filter and really live inside `root` (the worker skips what it cannot search). */
async function* filesUnder(root: string, directory: string, glob: string | undefined, signal: AbortSignal): AsyncGenerator<string> {
  const wanted = fileFilter(glob);
  for await (const file of walkFiles(directory, signal)) {
    if (!wanted(relative(directory, file))) continue;
    // Skips symlinks pointing outside the working directory; the worker skips what it cannot open.
    if (await resolveInside(root, file).then(() => true, () => false)) yield file;
  }
}
