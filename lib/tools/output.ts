/** The most output, in UTF-8 bytes, a tool result carries. */
export const MAX_OUTPUT_BYTES = 65536;

/** Cuts `text` to at most `maxBytes` UTF-8 bytes, never in the middle of a character. */
export function capOutput(text: string, maxBytes = MAX_OUTPUT_BYTES): { output: string; truncated: boolean } {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return { output: text, truncated: false };
  return { output: utf8Prefix(Buffer.from(text, 'utf8'), maxBytes).toString('utf8'), truncated: true };
}

/** The first `maxBytes` (or fewer) of UTF-8 `bytes`, ending on a character boundary. */
export function utf8Prefix(bytes: Buffer, maxBytes: number): Buffer {
  if (bytes.length <= maxBytes) return bytes;
  let cut = maxBytes;
  // Back off over continuation bytes (10xxxxxx) so the cut lands on the start of a character.
  while (cut > 0 && (bytes[cut] & 0xc0) === 0x80) cut--;
  return bytes.subarray(0, cut);
}

/** A tool's failure whose message carries output it had to cut: its error result is flagged `truncated`. */
export class TruncatedFailure extends Error {}
