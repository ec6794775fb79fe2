import { MAX_OUTPUT_BYTES } from './output.js';
import { resolveExisting } from './sandbox.js';
import { isBinaryFile, readLines } from './text_file.js';
import type { Tool } from './types.js';

type ReadFileArgs = { path: string; start_line?: number; end_line?: number; max_lines?: number };

const DEFAULT_MAX_LINES = 2000;

export const readFile: Tool<ReadFileArgs> = {
  name: 'read_file',
  description: 'Read a text file, numbered like `cat -n`; use start_line and end_line to read part of a long file.',
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', minLength: 1, description: 'The file, relative to the working directory.' },
      start_line: { type: 'integer', minimum: 1, description: 'First line to show (default 1).' },
      end_line: { type: 'integer', minimum: 1, description: 'Last line to show (default: the end of the file).' },
      max_lines: { type: 'integer', minimum: 1, description: `Most lines to show (default ${DEFAULT_MAX_LINES}).` },
    },
    required: ['path'],
    additionalProperties: false,
  },
  sideEffect: 'read',
  permission: 'allow',
  async run(args, context) {
    const { path, stats } = await resolveExisting(context.cwd, args.path);
    if (stats.isDirectory()) throw new Error(`"${args.path}" is a directory; use list_directory to see what it holds.`);
    if (!stats.isFile()) throw new Error(`"${args.path}" is not a regular file.`);
    if (await isBinaryFile(path)) throw new Error(`"${args.path}" is a binary file; read_file shows text only.`);

    const firstLine = args.start_line ?? 1;
    const lastLine = args.end_line ?? Infinity;
    const maxLines = args.max_lines ?? DEFAULT_MAX_LINES;
    if (lastLine < firstLine) throw new Error(`end_line (${lastLine}) is before start_line (${firstLine}).`);

    const shown: string[] = [];
    let shownBytes = 0;
    let lineNo = 0;
    let moreFollows = false;
    for await (const line of readLines(path, context.signal)) {
      lineNo++;
      if (lineNo < firstLine) continue;
      if (lineNo > lastLine) break;
      // Past the byte budget the registry truncates the output anyway, so there is no point reading on.
      if (shown.length === maxLines || shownBytes > MAX_OUTPUT_BYTES) {
        moreFollows = true;
        break;
      }
      const numbered = `${String(lineNo).padStart(6)}\t${line}`;
      shown.push(numbered);
      shownBytes += Buffer.byteLength(numbered) + 1;
    }

    if (shown.length === 0) {
      if (lineNo === 0 && firstLine === 1) return `(File "${args.path}" is empty.)`;
      throw new Error(`start_line ${firstLine} is past the end of "${args.path}", which has ${lineNo} lines.`);
    }
    if (moreFollows) {
      const next = firstLine + shown.length;
      shown.push(`(Showing lines ${firstLine}-${next - 1}; the file goes on. Read more with start_line ${next}.)`);
    }
    return shown.join('\n');
  },
};
