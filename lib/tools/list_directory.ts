import { readdir } from 'node:fs/promises';
import { resolveExisting } from './sandbox.js';
import type { Tool } from './types.js';
import { byName } from './walk.js';

type ListDirectoryArgs = { path?: string };

export const listDirectory: Tool<ListDirectoryArgs> = {
  name: 'list_directory',
  description: 'List the entries of a directory, sorted by name, one per line; directories end with "/".',
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
    if (!stats.isDirectory()) throw new Error(`"${shownPath}" is not a directory; use read_file to read a file.`);
    const entries = await readdir(path, { withFileTypes: true });
    if (entries.length === 0) return `(Directory "${shownPath}" is empty.)`;
    return entries
      .sort(byName)
      .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name))
      .join('\n');
  },
};
