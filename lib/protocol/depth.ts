/**
 * How deeply JSON containers may nest in anything zero reads (stream-json input, logs, sessions, tool arguments).
 * Walking a value, and JSON.stringify itself, recurse once per level and overflow the stack a few thousand
 * levels down; no real event comes near this limit.
 */
export const MAX_JSON_DEPTH = 256;

/** The problem reported for a value over the limit. */
export const TOO_DEEP = `nested more than ${MAX_JSON_DEPTH} levels deep`;

/**
 * Whether JSON `text` may nest more than `limit` levels: it has more than `limit` opening brackets. A quick
 * bound before parsing (a line of events has a few); only text that passes it needs its value walked.
 */
export function mayBeTooDeep(text: string, limit = MAX_JSON_DEPTH): boolean {
  if (text.length <= limit) return false;
  let brackets = 0;
  for (const bracket of ['{', '[']) {
    for (let at = text.indexOf(bracket); at >= 0; at = text.indexOf(bracket, at + 1)) if (++brackets > limit) return true;
  }
  return false;
}

/** Whether objects and arrays in `value` nest more than `limit` levels (the top container is level 1); iterative, so safe at any depth. */
export function isTooDeep(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [node, level] = next;
    if (typeof node !== 'object' || node === null) continue;
    if (level > limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child === 'object' && child !== null) pending.push([child, level + 1]);
    }
  }
  return false;
}
