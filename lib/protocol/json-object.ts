/** A JSON object: not null, not an array. (Its own module: what checks only this need not load ajv.) */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * How many keys a JSON text names, at least: every quote no backslash escapes that a colon follows (whitespace
 * between) ends a key. A string value that begins with a colon counts once more, never less.
 */
export function keysNamed(raw: string): number {
  let count = 0;
  for (let at = raw.indexOf('"'); at >= 0; at = raw.indexOf('"', at + 1)) {
    let next = at + 1;
    for (let code = raw.charCodeAt(next); code === 32 || code === 9 || code === 10 || code === 13; code = raw.charCodeAt(++next));
    if (raw.charCodeAt(next) !== 58) continue;
    let backslashes = 0;
    while (raw.charCodeAt(at - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) count++;
  }
  return count;
}

/** How many keys a parsed value has, at every depth (the framing refuses a line nested deeper than 256). */
export function keysIn(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let count = 0;
  if (Array.isArray(value)) for (const item of value) count += keysIn(item);
  else for (const key in value) count += 1 + keysIn((value as Record<string, unknown>)[key]);
  return count;
}
