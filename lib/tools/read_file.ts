import { MAX_OUTPUT_BYTES, utf8Prefix } from './output.js';
import { resolveExisting } from './sandbox.js';
import { openTextFile, readLines } from './text_file.js';
import type { Tool, ToolReport } from './types.js';

type ReadFileArgs = { path: string; start_line?: number; end_line?: number; max_lines?: number };

const DEFAULT_MAX_LINES = 2000;
/** The numbered lines fit in this many bytes, leaving room in the output for the note that says where to go on. */
const LINES_BUDGET = MAX_OUTPUT_BYTES - 512;

export const readFile: Tool<ReadFileArgs, ToolReport> = {
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
    const firstLine = args.start_line ?? 1;
    const lastLine = args.end_line ?? Infinity;
    const maxLines = args.max_lines ?? DEFAULT_MAX_LINES;
    if (lastLine < firstLine) throw new Error(`end_line (${lastLine}) is before start_line (${firstLine}).`);

    const file = await openTextFile(path, args.path);
    if (!file) throw new Error(`"${args.path}" is a binary file; read_file shows text only.`);

    // Bounded by bytes, not lines: no line is held longer than what can still be shown.
    const shown: string[] = [];
    let shownBytes = 0;
    let lineNo = 0;
    let stop: 'budget' | 'max_lines' | 'cut' | undefined;
    for await (const line of readLines(file.fd, { maxLineBytes: LINES_BUDGET, signal: context.signal })) {
      lineNo++;
      if (lineNo < firstLine) continue;
      if (lineNo > lastLine) break;
      if (shown.length === maxLines) {
        stop = 'max_lines';
        break;
      }
      const number = `${String(lineNo).padStart(6)}\t`;
      const room = LINES_BUDGET - shownBytes - number.length;
      const size = Buffer.byteLength(line.text);
      if ((line.cut || size > room) && shown.length > 0) {
        stop = 'budget';
        break;
      }
      if (line.cut || size > room) {
        // The first line shown is longer than the output can hold: its start is shown, and the cut is said.
        shown.push(number + utf8Prefix(Buffer.from(line.text), room).toString('utf8'));
        stop = 'cut';
        break;
      }
      shown.push(number + line.text);
      shownBytes += number.length + size + 1;
    }

    if (shown.length === 0) {
      if (lineNo === 0 && firstLine === 1) return { output: `(File "${args.path}" is empty.)` };
      throw new Error(`start_line ${firstLine} is past the end of "${args.path}", which has ${lineNo} lines.`);
    }
    const next = firstLine + shown.length;
    if (stop === 'cut') {
      shown.push(`(Line ${lineNo} is cut: it is longer than the ${LINES_BUDGET} bytes read_file shows at once, and only its start is shown. Lines after it, if any, start at start_line ${next}.)`);
    } else if (stop) {
      shown.push(`(Showing lines ${firstLine}-${next - 1}; the file goes on. Read more with start_line ${next}.)`);
    }
    return { output: shown.join('\n'), truncated: stop === 'budget' || stop === 'cut' };
  },
};
