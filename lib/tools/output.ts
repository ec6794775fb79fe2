/** The most output, in UTF-8 bytes, a tool result carries. */
export const MAX_OUTPUT_BYTES = 65536;

/** Cuts `text` to at most `maxBytes` UTF-8 bytes, never in the middle of a character. */
export function capOutput(text: string, maxBytes = MAX_OUTPUT_BYTES): { output: string; truncated: boolean } {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return { output: text, truncated: false };
  const bytes = Buffer.from(text, 'utf8');
  let cut = maxBytes;
  // Back off over continuation bytes (10xxxxxx) so the cut lands on the start of a character.
  while (cut > 0 && (bytes[cut] & 0xc0) === 0x80) cut--;
  return { output: bytes.subarray(0, cut).toString('utf8'), truncated: true };
}

/** A tool's failure whose message carries output it had to cut: its error result is flagged `truncated`. */
export class TruncatedFailure extends Error {}
