import { writeFileAtomic } from './atomic_write.js';
import { readEditableText } from './file_state.js';
import { changedFilePaths, resolveWritable, writeTargets } from './sandbox.js';
import type { Tool, ToolReport } from './types.js';

type EditFileArgs = { path: string; old_string: string; new_string: string; replace_all?: boolean };

export const editFile: Tool<EditFileArgs, ToolReport> = {
  name: 'edit_file',
  description:
    'Replace an exact string in a file with another; old_string must match the file exactly (whitespace included) and be unique unless replace_all is set.',
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', minLength: 1, description: 'The file, relative to the working directory.' },
      old_string: { type: 'string', minLength: 1, description: 'The exact text to replace; include enough context to make it unique.' },
      new_string: { type: 'string', description: 'The text to put in its place.' },
      replace_all: { type: 'boolean', description: 'Replace every occurrence instead of exactly one (default false).' },
    },
    required: ['path', 'old_string', 'new_string'],
    additionalProperties: false,
  },
  sideEffect: 'write',
  permission: 'prompt',
  async run(args, context) {
    const { old_string: oldString, new_string: newString } = args;
    if (oldString === newString) throw new Error('old_string and new_string are the same; there is nothing to change.');
    const path = await resolveWritable(context, args.path);
    const file = await readEditableText(path, args.path);
    if (file === null) throw new Error(`Path "${args.path}" does not exist.`);

    const pieces = file.text.split(oldString);
    const occurrences = pieces.length - 1;
    if (occurrences === 0) {
      throw new Error(`old_string was not found in "${args.path}"; it must match the file exactly, including whitespace and indentation.`);
    }
    if (occurrences > 1 && !args.replace_all) {
      throw new Error(
        `old_string appears ${occurrences} times in "${args.path}"; add surrounding context to make it unique, or set replace_all to replace all ${occurrences}.`,
      );
    }
    // split/join rather than String.replace, which would treat "$&" and the like in new_string as patterns.
    await writeFileAtomic(path, pieces.join(newString), file.stats, context.signal);
    const output = `Replaced ${occurrences} ${occurrences === 1 ? 'occurrence' : 'occurrences'} in "${args.path}".`;
    return { output, changedFiles: await changedFilePaths(context, [path]) };
  },
  targets: (args, context) => writeTargets(context, [args.path]),
};
