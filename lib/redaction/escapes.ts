/**
 * Escaped forms of secrets: `\u0073k-…` (JSON, JavaScript), `\x2d` and
 * `&#115;` / `&#x73;` (HTML numeric entities). (URL encoding leaves key
 * characters as they are; a credential's URL-encoded form is matched whole:
 * see known.ts.) Only
 * escapes of characters that secrets are made of (letters, digits, `_-.+/=:`)
 * are decoded, so decoding never creates a quote, a backslash or markup: the
 * text keeps its JSON or HTML structure.
 */

const ESCAPE = /\\u([0-9A-Fa-f]{4})|\\x([0-9A-Fa-f]{2})|&#(?:[xX]([0-9A-Fa-f]{1,6})|([0-9]{1,7}));/g;
const SECRET_CHAR = /^[A-Za-z0-9_.+\/=:-]$/;

/** Every escape decodeSecretEscapes decodes starts with one of these (lowercase, as prefilter keywords). */
export const ESCAPE_KEYWORDS: readonly string[] = ['\\u', '\\x', '&#'];

/** The character an escape (ESCAPE's groups) stands for, when it is a secret character ('' when not). */
function secretChar(unicode?: string, hex?: string, entityHex?: string, entity?: string): string {
  const code = unicode ?? hex ?? entityHex;
  const point = code !== undefined ? parseInt(code, 16) : parseInt(entity!, 10);
  // every secret character is ASCII
  const char = point < 128 ? String.fromCharCode(point) : '';
  return SECRET_CHAR.test(char) ? char : '';
}

/** The text with every escape of a secret character decoded (other escapes stay as they were). */
export function decodeSecretEscapes(text: string): string {
  return text.replace(ESCAPE, (escape, unicode?: string, hex?: string, entityHex?: string, entity?: string) => secretChar(unicode, hex, entityHex, entity) || escape);
}

/** Where decodeSecretEscapes decodes an escape in `text`: its start, its end and the character it stands for. */
export function secretEscapeRanges(text: string): [start: number, end: number, char: string][] {
  const ranges: [number, number, string][] = [];
  for (const found of text.matchAll(ESCAPE)) {
    const char = secretChar(found[1], found[2], found[3], found[4]);
    if (char) ranges.push([found.index, found.index + found[0].length, char]);
  }
  return ranges;
}
