import type { Stats } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { applyPatch as applyHunks, parsePatch, type StructuredPatch, type StructuredPatchHunk } from 'diff';
import { writeFileAtomic } from './atomic_write.js';
import { readEditableText } from './file_state.js';
import { changedFilePaths, resolveWritable, writeTargets } from './sandbox.js';
import type { Tool, ToolReport } from './types.js';

type ApplyPatchArgs = { patch: string };

/** One file section of the patch: `path` as the patch names it (a/ and b/ dropped), and whether it is new or deleted. */
type FilePatch = { path: string; creates: boolean; deletes: boolean; section: StructuredPatch };

/** A file's content before the patch and after the sections applied so far (null: no file), and its stats if it exists. */
type PlannedFile = { before: string | null; after: string | null; stats?: Stats };

export const applyPatch: Tool<ApplyPatchArgs, ToolReport> = {
  name: 'apply_patch',
  description:
    'Apply a unified diff (`--- a/path` / `+++ b/path` headers, @@ hunks; /dev/null to create or delete a file) to one or more files, all or nothing.',
  parameters: {
    type: 'object',
    properties: {
      patch: { type: 'string', minLength: 1, description: 'The unified diff, as `git diff` or `diff -u` prints it.' },
    },
    required: ['patch'],
    additionalProperties: false,
  },
  sideEffect: 'write',
  permission: 'prompt',
  async run(args, context) {
    const filePatches = parseFilePatches(args.patch);
    // Every path is checked before any file is read, and every hunk applied in memory before any file is written.
    const realPaths: string[] = [];
    for (const { path } of filePatches) realPaths.push(await resolveWritable(context, path));

    const planned = new Map<string, PlannedFile>();
    const summary: string[] = [];
    for (const [index, filePatch] of filePatches.entries()) {
      let file = planned.get(realPaths[index]);
      if (!file) {
        const existing = await readEditableText(realPaths[index], filePatch.path);
        file = { before: existing?.text ?? null, after: existing?.text ?? null, stats: existing?.stats };
        planned.set(realPaths[index], file);
      }
      file.after = patchedContent(file.after, filePatch);
      summary.push(describe(filePatch));
    }

    context.signal.throwIfAborted();
    const changed: string[] = [];
    for (const [path, { before, after, stats }] of planned) {
      if (after === before) continue;
      if (after === null) {
        await rm(path);
      } else {
        await mkdir(dirname(path), { recursive: true });
        await writeFileAtomic(path, after, stats);
      }
      changed.push(path);
    }
    return { output: summary.join('\n'), ...(changed.length ? { changedFiles: await changedFilePaths(context, changed) } : {}) };
  },
  targets: (args, context) => writeTargets(context, parseFilePatches(args.patch).map(({ path }) => path)),
};

function parseFilePatches(patch: string): FilePatch[] {
  let sections: StructuredPatch[];
  try {
    sections = parsePatch(patch);
  } catch (error) {
    throw new Error(`The patch could not be parsed: ${(error as Error).message}`);
  }
  sections = sections.filter((section) => section.oldFileName !== undefined || section.hunks.length > 0);
  if (sections.length === 0) throw new Error('The patch changes no file: expected `--- a/path` and `+++ b/path` headers followed by @@ hunks.');
  return sections.map((section) => {
    if (section.oldFileName === undefined || section.newFileName === undefined) {
      throw new Error('A hunk of the patch has no `--- a/path` / `+++ b/path` headers naming its file.');
    }
    if (section.isBinary) throw new Error(`The patch changes the binary file "${section.newFileName}"; apply_patch handles text only.`);
    // Git's a/ and b/ prefixes are dropped only when both names carry them (or are /dev/null), like `git apply`.
    const isNull = (name: string) => name === '/dev/null';
    const prefixed = (isNull(section.oldFileName) || section.oldFileName.startsWith('a/')) && (isNull(section.newFileName) || section.newFileName.startsWith('b/'));
    const path = (name: string) => (isNull(name) ? null : prefixed ? name.slice(2) : name);
    const oldPath = section.isCreate ? null : path(section.oldFileName);
    const newPath = section.isDelete ? null : path(section.newFileName);
    if (oldPath === null && newPath === null) throw new Error('A file section of the patch has /dev/null for both names.');
    if (oldPath !== null && newPath !== null && oldPath !== newPath) {
      throw new Error(`The patch renames "${oldPath}" to "${newPath}"; apply_patch does not rename files (use bash for that).`);
    }
    return { path: (newPath ?? oldPath)!, creates: oldPath === null, deletes: newPath === null, section };
  });
}

/** The content after applying one file section to `content` (null: no file); throws naming the file and hunk. */
function patchedContent(content: string | null, { path, creates, deletes, section }: FilePatch): string | null {
  if (creates && content !== null) throw new Error(`The patch creates "${path}", which already exists. No file was changed.`);
  if (!creates && content === null) throw new Error(`Path "${path}" does not exist. No file was changed.`);
  let result = content ?? '';
  // Applying the hunks one more at a time tells which one fails, with the diff library's own matching rules.
  for (let count = 1; count <= section.hunks.length; count++) {
    const applied = applyHunks(content ?? '', { ...section, hunks: section.hunks.slice(0, count) });
    if (applied === false) {
      const hunk = section.hunks[count - 1];
      throw new Error(
        `Hunk ${count} of "${path}" (${hunkHeader(hunk)}) does not apply: its context and removed lines do not match the file. No file was changed.`,
      );
    }
    result = applied;
  }
  if (!deletes) return result;
  if (result !== '') throw new Error(`The patch deletes "${path}", but its hunks do not remove all of the file. No file was changed.`);
  return null;
}

/** The hunk's header as the patch wrote it: the parser adds 1 to the start of an empty side. */
function hunkHeader({ oldStart, oldLines, newStart, newLines }: StructuredPatchHunk): string {
  return `@@ -${oldLines === 0 ? oldStart - 1 : oldStart},${oldLines} +${newLines === 0 ? newStart - 1 : newStart},${newLines} @@`;
}

function describe({ path, creates, deletes, section }: FilePatch): string {
  const count = (sign: string) => section.hunks.reduce((sum, hunk) => sum + hunk.lines.filter((line) => line.startsWith(sign)).length, 0);
  const action = creates ? 'created' : deletes ? 'deleted' : 'modified';
  return `${action} ${path} (+${count('+')} -${count('-')})`;
}
