/**
 * The released text a stream redactor keeps in view as the left context of what it still holds (stream.ts).
 */

/** Released text kept, at least, as the left context of the next release: a name before its keyword, lookbehinds, line starts. */
export const CONTEXT_CHARS = 160;

/**
 * Released raw text kept as the left context of what is still held. It
 * starts at an earlier cut, never inside a match: a long token released
 * whole stays whole in it, so rules that run after the token rule see its
 * `[REDACTED]` there, as they do in the whole text. `cuts` are the ends of
 * releases, relative to the text's start; the first is 0.
 */
export type Context = { text: string; cuts: number[] };

/** The latest cut of `text` (with `cuts`) that leaves CONTEXT_CHARS or more after it. */
function keptCut(text: string, cuts: readonly number[]): number {
  let keep = 0;
  while (keep + 1 < cuts.length && text.length - cuts[keep + 1]! >= CONTEXT_CHARS) keep++;
  return keep;
}

/** What the context's text would be once `raw` is released (without releasing it). */
export function textAfter(context: Context, raw: string): string {
  const text = context.text + raw;
  const keep = keptCut(text, [...context.cuts, text.length]);
  return keep === 0 ? text : text.slice(context.cuts[keep] ?? text.length);
}

/** Released text before the context's start kept at most (a few old cuts' worth) before it is let go of. */
const STALE_CHARS = 4096;
const STALE_CUTS = 64;

/**
 * The context, kept as it grows: the pieces released since an older cut (one between each two cuts), and the
 * cuts as positions since the context began. Releasing costs no copy and no walk of the cuts (the latest cut
 * that leaves CONTEXT_CHARS or more only moves on); the text is joined when a release that needs it looks (a
 * quiet one needs only its length). A class: a stream makes one at every flush, before each event that is not a delta.
 */
class ReleasedContext {
  private pieces: string[] = [];
  private cuts = [0];
  /** The context starts at cuts[keep]. */
  private keep = 0;
  private end = 0;
  private joined: string | undefined = '';

  get length(): number {
    return this.end - this.cuts[this.keep]!;
  }

  get text(): string {
    return (this.joined ??= this.pieces.length - this.keep === 1 ? this.pieces[this.keep]! : this.pieces.slice(this.keep).join(''));
  }

  /** Its last `count` characters (all of it when shorter), from its last pieces: nothing joined. */
  endChars(count: number): string {
    let chars = '';
    for (let at = this.pieces.length - 1; at >= this.keep && chars.length < count; at--) chars = this.pieces[at] + chars;
    return chars.length > count ? chars.slice(-count) : chars;
  }

  /** As a Context: its text, and its cuts from 0. */
  view(): Context {
    const start = this.cuts[this.keep]!;
    return { text: this.text, cuts: this.cuts.slice(this.keep).map((cut) => cut - start) };
  }

  /** Releases `raw` into it: the text from the latest cut that leaves CONTEXT_CHARS or more. */
  extend(raw: string): void {
    this.pieces.push(raw);
    this.end += raw.length;
    this.cuts.push(this.end);
    this.joined = undefined;
    while (this.keep + 1 < this.cuts.length && this.end - this.cuts[this.keep + 1]! >= CONTEXT_CHARS) this.keep++;
    if (this.keep < STALE_CUTS && this.cuts[this.keep]! - this.cuts[0]! < STALE_CHARS) return;
    this.pieces = this.pieces.slice(this.keep);
    this.cuts = this.cuts.slice(this.keep);
    this.keep = 0;
  }
}

export const createContext = (): ReleasedContext => new ReleasedContext();
