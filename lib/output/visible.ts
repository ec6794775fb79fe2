// Text from a model, a tool or a log is data: written to a person's terminal as it is, its control characters
// would be obeyed. ESC starts sequences that move the cursor (faking an `[ok]` line), recolour, retitle the window
// or write the clipboard (OSC 52); a lone carriage return overwrites the line before it. Shown escaped instead,
// they are visible and inert. \n and \t lay out text and stay; so does the \r of a \r\n line end.

/** C0 controls but \t and \n, DEL and the C1 controls (U+0080–U+009F: U+009B is a one-character CSI); a \r not before \n. */
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]|\r(?!\n)/;
const CONTROLS = new RegExp(CONTROL.source, 'g');

const NAMED: Record<string, string> = { '\x1b': '\\e', '\r': '\\r', '\b': '\\b', '\f': '\\f', '\v': '\\v', '\0': '\\0' };

const escaped = (character: string) => NAMED[character] ?? `\\x${character.charCodeAt(0).toString(16).padStart(2, '0')}`;

/**
 * The text with every control character a terminal would obey written visibly (`\e]52;…`, `\r`, `\x07`). Text
 * without one (nearly all of it: a streamed delta is tested once, not copied) comes back as it is.
 */
export function visible(text: string): string {
  return CONTROL.test(text) ? text.replace(CONTROLS, escaped) : text;
}
