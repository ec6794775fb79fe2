import type { ToolCallEvent, ToolResultEvent } from '../protocol/types.js';
import { isJsonObject } from '../protocol/json-object.js';

// The text format's progress lines say what happened, in a few words: the tool and what it works on, then how it
// went. Never the raw output: that is the model's to read, and it would bury the answer.

/** The argument that says what a call works on, in the order tools name it. */
const SUBJECT_KEYS = ['command', 'pattern', 'path', 'url', 'query'];

/** Whitespace runs become one space; the ends are trimmed. */
export const collapse = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** At most `max` characters (code points: no half surrogate pair), the last one an ellipsis when cut. */
export function cut(text: string, max: number): string {
  const points = Array.from(text.slice(0, max * 2 + 2));
  return points.length <= max ? points.join('') : `${points.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/** `read_file README.md`, `bash npm test`, `grep TODO in lib`, `apply_patch a.ts b.ts`. */
export function describeCall(call: Pick<ToolCallEvent, 'name' | 'args'>): string {
  // Zero Go writes the model's arguments as they came when they are not an object: no subject to name then
  const args = isJsonObject(call.args) ? call.args : {};
  const text = (key: string) => (typeof args[key] === 'string' ? collapse(args[key] as string) : '');
  if (typeof args.patch === 'string') return [call.name, ...patchedFiles(args.patch)].join(' ');
  const key = SUBJECT_KEYS.find((name) => text(name)) ?? Object.keys(args).find((name) => text(name));
  if (!key) return call.name;
  const where = key === 'pattern' && text('path') ? ` in ${text('path')}` : '';
  return `${call.name} ${text(key)}${where}`;
}

function patchedFiles(patch: string): string[] {
  const files = [...patch.matchAll(/^\+\+\+ (?:b\/)?(\S+)/gm)].map((match) => match[1]!).filter((file) => file !== '/dev/null');
  return [...new Set(files)];
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

function lines(text: string): string[] {
  const all = text.split(/\r?\n/);
  if (all.at(-1) === '') all.pop();
  return all;
}

/** Tools that answer with data (file lines, matches, names): counted, never shown, even when it is one line. */
const DATA_TOOLS = new Set(['read_file', 'grep', 'glob', 'list_directory']);

/** A data tool's note about its data (`(Showing lines 1-5; the file goes on. …)`, `(File "a" is empty.)`): not a line of data. */
const NOTE = /^\(.*[.!?]\)$/;

/** glob's and grep's one-line answer when nothing matched: a message, not data. */
const NOTHING_FOUND = /^No (files match|matches for) /;

/** bash ends its output with `exit code N`. */
const EXIT_LINE = /^exit code (\d+)$/;

export type ResultLine = { ok: boolean; summary: string };

/**
 * How a call went, in one line: a message when the tool answered with one line, else how many lines came back;
 * for bash the exit code, and on failure the last thing the command said.
 */
export function describeResult(result: Pick<ToolResultEvent, 'status' | 'output' | 'truncated' | 'display'>, toolName?: string): ResultLine {
  const ok = result.status === 'ok';
  if (result.display?.summary) return { ok, summary: collapse(result.display.summary) };
  const all = lines(result.output ?? '');
  const said = (from: string[]) => from.filter((line) => line.trim() !== '');
  const count = (from: string[]) => plural(from.length, 'line') + (result.truncated ? ', cut' : '');
  const exit = toolName === 'bash' ? EXIT_LINE.exec(all.at(-1) ?? '') : null;
  if (exit) {
    const printed = all.slice(0, -1);
    if (exit[1] !== '0') return { ok: false, summary: [`exit ${exit[1]}`, collapse(said(printed).at(-1) ?? '')].filter(Boolean).join(': ') };
    return { ok, summary: said(printed).length === 0 ? 'no output' : count(printed) };
  }
  if (ok && toolName && DATA_TOOLS.has(toolName) && !NOTHING_FOUND.test(all[0] ?? '')) {
    const data = all.filter((line) => !NOTE.test(line));
    if (data.length === 0 && all.length > 0) return { ok, summary: collapse(all[0]!.slice(1, -1)) };
    return { ok, summary: all.length === 0 ? 'nothing' : count(data) };
  }
  if (!ok || said(all).length <= 1) return { ok, summary: collapse(said(all)[0] ?? (ok ? 'no output' : 'failed')) };
  return { ok, summary: count(all) };
}
