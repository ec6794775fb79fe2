import type { Stats } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { applyPatch as applyHunks, parsePatch, type StructuredPatch, type StructuredPatchHunk } from 'diff';
import { writeFileAtomic } from './atomic_write.js';
import { readEditableText } from './file_state.js';
import { changedFilePaths, resolveWritable, writeTargets } from './sandbox.js';
import type { Tool, ToolContext, ToolReport } from './types.js';

type ApplyPatchArgs = { patch: string };

/**
 * One file section of the patch, its paths as the patch names them (a/ and b/ dropped): `from` the file it reads
 * (null: it creates one), `to` the file it writes (null: it deletes `from`). A git rename or copy reads `from` and
 * creates `to`; a rename then removes `from`.
 */
type FilePatch = { from: string | null; to: string | null; move?: 'rename' | 'copy'; section: StructuredPatch };

/** A file's content before the patch and after the sections applied so far (null: no file), and the stats whose mode it keeps. */
type PlannedFile = { before: string | null; after: string | null; stats?: Stats };

export const applyPatch: Tool<ApplyPatchArgs, ToolReport> = {
  name: 'apply_patch',
  description:
    'Apply a unified diff (`--- a/path` / `+++ b/path` headers, @@ hunks; /dev/null to create or delete a file; git `rename from`/`rename to` and `copy from`/`copy to`) to one or more files, all or nothing.',
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
    const realPaths = new Map<string, string>();
    for (const path of filePatches.flatMap(({ from, to }) => [from, to])) {
      if (path !== null && !realPaths.has(path)) realPaths.set(path, await resolveWritable(context, path));
    }
    const planned = new Map<string, PlannedFile>();
    const load = async (path: string): Promise<PlannedFile> => {
      const realPath = realPaths.get(path)!;
      let file = planned.get(realPath);
      if (!file) {
        const existing = await readEditableText(realPath, path);
        file = { before: existing?.text ?? null, after: existing?.text ?? null, stats: existing?.stats };
        planned.set(realPath, file);
      }
      return file;
    };
    for (const filePatch of filePatches) {
      const { from, to, move, section } = filePatch;
      const source = from === null ? undefined : await load(from);
      const target = to === null ? source! : await load(to);
      if (move) {
        if (source!.after === null) throw new Error(`The patch ${move === 'rename' ? 'renames' : 'copies'} "${from}", which does not exist. No file was changed.`);
        if (target.after !== null) throw new Error(`The patch ${move === 'rename' ? 'renames' : 'copies'} "${from}" to "${to}", which already exists. No file was changed.`);
        target.after = patchedContent(source!.after, section, to!);
        target.stats ??= source!.stats;
        if (move === 'rename') source!.after = null;
      } else {
        target.after = modifiedContent(target.after, filePatch);
      }
    }
    context.signal.throwIfAborted();
    return { output: filePatches.map(describe).join('\n'), ...(await writePlanned(context, planned)) };
  },
  // async: a patch that cannot be read rejects, as run does, rather than throwing before any promise exists.
  targets: async (args, context) => writeTargets(context, parseFilePatches(args.patch).flatMap(changedPaths)),
};

/** Writes every changed file, then removes the deleted ones (a rename never loses its file to a failed write); the files changed. */
async function writePlanned(context: ToolContext, planned: Map<string, PlannedFile>): Promise<{ changedFiles?: string[] }> {
  const changed = [...planned].filter(([, { before, after }]) => after !== before);
  for (const [path, { after, stats }] of changed) {
    if (after === null) continue;
    await mkdir(dirname(path), { recursive: true });
    await writeFileAtomic(path, after, stats);
  }
  for (const [path, { after }] of changed) if (after === null) await rm(path);
  return changed.length ? { changedFiles: await changedFilePaths(context, changed.map(([path]) => path)) } : {};
}

/** The paths a section changes: a copy leaves its source as it is. */
function changedPaths({ from, to, move }: FilePatch): string[] {
  return [...(from !== null && move !== 'copy' ? [from] : []), ...(to !== null && to !== from ? [to] : [])];
}

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
    const from = section.isCreate ? null : path(section.oldFileName);
    const to = section.isDelete ? null : path(section.newFileName);
    if (from === null && to === null) throw new Error('A file section of the patch has /dev/null for both names.');
    const move = section.isRename ? 'rename' : section.isCopy ? 'copy' : undefined;
    if (move && (from === null || to === null || from === to)) throw new Error(`A git ${move} in the patch needs two different paths (\`${move} from\` and \`${move} to\`).`);
    if (!move && from !== null && to !== null && from !== to) {
      throw new Error(`The patch names two files, "${from}" and "${to}", in one section; to rename or copy a file, use git's \`rename from\`/\`rename to\` or \`copy from\`/\`copy to\` headers.`);
    }
    return { from, to, move, section };
  });
}

/** A section that modifies, creates or deletes one file, applied to its content so far (null: no file). */
function modifiedContent(content: string | null, { from, to, section }: FilePatch): string | null {
  const path = (to ?? from)!;
  if (from === null && content !== null) throw new Error(`The patch creates "${path}", which already exists. No file was changed.`);
  if (from !== null && content === null) throw new Error(`Path "${path}" does not exist. No file was changed.`);
  const result = patchedContent(content ?? '', section, path);
  if (to !== null) return result;
  if (result !== '') throw new Error(`The patch deletes "${path}", but its hunks do not remove all of the file. No file was changed.`);
  return null;
}

/** `content` with the section's hunks applied; throws naming the file (`path`) and the hunk that does not apply. */
function patchedContent(content: string, section: StructuredPatch, path: string): string {
  let result = content;
  // Applying the hunks one more at a time tells which one fails, with the diff library's own matching rules.
  for (let count = 1; count <= section.hunks.length; count++) {
    const applied = applyHunks(content, { ...section, hunks: section.hunks.slice(0, count) });
    if (applied === false) {
      const hunk = section.hunks[count - 1];
      throw new Error(
        `Hunk ${count} of "${path}" (${hunkHeader(hunk)}) does not apply: its context and removed lines do not match the file. No file was changed.`,
      );
    }
    result = applied;
  }
  return result;
}

/** The hunk's header as the patch wrote it: the parser adds 1 to the start of an empty side. */
function hunkHeader({ oldStart, oldLines, newStart, newLines }: StructuredPatchHunk): string {
  return `@@ -${oldLines === 0 ? oldStart - 1 : oldStart},${oldLines} +${newLines === 0 ? newStart - 1 : newStart},${newLines} @@`;
}

function describe({ from, to, move, section }: FilePatch): string {
  const count = (sign: string) => section.hunks.reduce((sum, hunk) => sum + hunk.lines.filter((line) => line.startsWith(sign)).length, 0);
  const counts = `(+${count('+')} -${count('-')})`;
  if (move) return `${move === 'rename' ? 'renamed' : 'copied'} ${from} → ${to} ${counts}`;
  const action = from === null ? 'created' : to === null ? 'deleted' : 'modified';
  return `${action} ${to ?? from} ${counts}`;
}
