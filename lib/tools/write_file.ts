import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from './atomic_write.js';
import { statWritable } from './file_state.js';
import { changedFilePaths, resolveWritable, writeTargets } from './sandbox.js';
import type { Tool, ToolReport } from './types.js';

type WriteFileArgs = { path: string; content: string };

export const writeFile: Tool<WriteFileArgs, ToolReport> = {
  name: 'write_file',
  description:
    'Create a file, or overwrite one with entirely new content; missing parent directories are created. Prefer edit_file to change part of a file.',
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', minLength: 1, description: 'The file, relative to the working directory.' },
      content: { type: 'string', description: 'The complete new content of the file.' },
    },
    required: ['path', 'content'],
    additionalProperties: false,
  },
  sideEffect: 'write',
  permission: 'prompt',
  async run(args, context) {
    const path = await resolveWritable(context, args.path);
    const existing = await statWritable(path, args.path);
    await mkdir(dirname(path), { recursive: true });
    await writeFileAtomic(path, args.content, existing, context.signal);
    const written = bytes(Buffer.byteLength(args.content));
    const output = existing ? `Overwrote "${args.path}" with ${written} (it had ${bytes(existing.size)}).` : `Created "${args.path}" with ${written}.`;
    return { output, changedFiles: await changedFilePaths(context, [path]) };
  },
  targets: (args, context) => writeTargets(context, [args.path]),
};

const bytes = (count: number) => `${count} ${count === 1 ? 'byte' : 'bytes'}`;
