/**
 * How deeply JSON containers may nest in anything zero reads (stream-json input, logs, sessions, tool arguments).
 * Walking a value, and JSON.stringify itself, recurse once per level and overflow the stack a few thousand
 * levels down; no real event comes near this limit.
 */
export const MAX_JSON_DEPTH = 256;

/** The problem reported for a value over the limit. */
export const TOO_DEEP = `nested more than ${MAX_JSON_DEPTH} levels deep`;
/** What the model is told of tool arguments over the limit (no `args` go anywhere downstream). */
export const TOO_DEEP_ARGUMENTS = `The tool arguments are ${TOO_DEEP}; send them with less nesting.`;

/**
 * Whether objects and arrays in `value` nest more than `limit` levels (the top container is level 1); never with
 * an infinite limit. It walks only the containers, so a line's text need not be searched first, and recurses at most
 * `limit` calls deep: safe at any depth of the value for a limit in the hundreds.
 */
export function isTooDeep(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  return limit !== Infinity && typeof value === 'object' && value !== null && nestsDeeper(value, limit);
}

/** Whether a parsed JSON line nests more than `limit` levels: a line of `limit` characters or fewer has too few brackets to, and is not walked. */
export function isLineTooDeep(line: string, value: unknown, limit = MAX_JSON_DEPTH): boolean {
  return line.length > limit && isTooDeep(value, limit);
}

/**
 * Whether the JSON text `text` opens more than `limit` containers at once, read before it is parsed: a model's
 * 150 MB of `[` parsed first ran out of heap building the arrays. Brackets inside strings do not count.
 */
export function isTextTooDeep(text: string, limit = MAX_JSON_DEPTH): boolean {
  if (text.length <= limit) return false;
  let depth = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 91 || code === 123) {
      if (++depth > limit) return true;
    } else if (code === 93 || code === 125) depth--;
    else if (code === 34) at = stringEnd(text, at);
  }
  return false;
}

/** Where the JSON string opened by the quote at `open` closes (its closing quote; text.length when it does not). */
export function stringEnd(text: string, open: number): number {
  for (let at = text.indexOf('"', open + 1); at >= 0; at = text.indexOf('"', at + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
  return text.length;
}

/** Whether containers in `node`, itself one, nest more than `room` levels. */
function nestsDeeper(node: object, room: number): boolean {
  if (room === 0) return true;
  if (Array.isArray(node)) {
    for (const child of node as unknown[]) if (typeof child === 'object' && child !== null && nestsDeeper(child, room - 1)) return true;
    return false;
  }
  for (const key in node) {
    const child = (node as Record<string, unknown>)[key];
    if (typeof child === 'object' && child !== null && Object.hasOwn(node, key) && nestsDeeper(child, room - 1)) return true;
  }
  return false;
}
