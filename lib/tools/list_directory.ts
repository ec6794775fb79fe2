import { readdir } from 'node:fs/promises';
import { fileKind, isSpecialFile } from '../files/open.js';
import { resolveExisting } from './sandbox.js';
import type { Tool } from './types.js';
import { byName } from './walk.js';

type ListDirectoryArgs = { path?: string };

export const listDirectory: Tool<ListDirectoryArgs> = {
  name: 'list_directory',
  description: 'List the entries of a directory, sorted by name, one per line; directories end with "/", special files (FIFOs, sockets, devices) say what they are.',
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', minLength: 1, description: 'The directory, relative to the working directory (default ".").' },
    },
    additionalProperties: false,
  },
  sideEffect: 'read',
  permission: 'allow',
  async run(args, context) {
    const shownPath = args.path ?? '.';
    const { path, stats } = await resolveExisting(context.cwd, shownPath);
    if (stats.isFile()) throw new Error(`"${shownPath}" is not a directory; use read_file to read a file.`);
    if (!stats.isDirectory()) throw new Error(`"${shownPath}" is ${fileKind(stats)}, not a directory.`);
    const entries = await readdir(path, { withFileTypes: true });
    if (entries.length === 0) return `(Directory "${shownPath}" is empty.)`;
    return entries
      .sort(byName)
      .map((entry) => (entry.isDirectory() ? `${entry.name}/` : isSpecialFile(entry) ? `${entry.name} (${fileKind(entry)}: not read by the file tools)` : entry.name))
      .join('\n');
  },
};
