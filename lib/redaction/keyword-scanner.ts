/**
 * Finds keywords in text that arrives in pieces, each character looked at
 * once: an Aho–Corasick automaton over ASCII, case-insensitive as a regex's
 * `i` flag is (only A–Z and a–z fold; no other character equals an ASCII
 * one). Its state carries over from piece to piece, so a keyword split
 * across pieces is found where it ends, and nothing is scanned twice. This
 * is what lets the stream redactor look at every delta for keywords at a
 * few nanoseconds a character (a regex over the piece plus the characters
 * before it a keyword may span costs ten times more).
 */

/** No keyword ends in the piece (an integer, as every answer is: no number is boxed in the loop that asks). */
export const NO_KEYWORD = Number.MIN_SAFE_INTEGER;

export interface KeywordScanner {
  /**
   * The next piece of the text: where the last keyword that ends in it starts, relative to the piece's
   * start (negative when it starts in an earlier piece), or NO_KEYWORD.
   */
  scan(piece: string): number;
  /** A new text begins: no keyword spans what came before and what comes next. */
  reset(): void;
}

const ASCII = 128;

/** A factory of scanners for `keywords` (ASCII, matched ignoring case), the automaton built once. */
export function keywordScanners(keywords: readonly string[]): () => KeywordScanner {
  const lowered = keywords.filter((keyword) => keyword.length > 0).map((keyword) => keyword.toLowerCase());
  // Characters no keyword holds are one class: the table has a column per class (it stays small enough to stay in cache).
  const classOf = new Uint8Array(ASCII);
  let classes = 1;
  for (const keyword of lowered) {
    for (let i = 0; i < keyword.length; i++) {
      const code = keyword.charCodeAt(i);
      if (code >= ASCII) throw new Error(`keyword ${JSON.stringify(keyword)} is not ASCII`);
      if (classOf[code] === 0) classOf[code] = classes++;
    }
  }
  for (let code = 65; code <= 90; code++) classOf[code] = classOf[code + 32]!;

  const children: Array<Map<number, number>> = [new Map()];
  /** Per state, the length of the shortest keyword ending there (0: none): the latest start. */
  const shortestLength: number[] = [0];
  for (const keyword of lowered) {
    let state = 0;
    for (let i = 0; i < keyword.length; i++) {
      const symbol = classOf[keyword.charCodeAt(i)]!;
      let next = children[state]!.get(symbol);
      if (next === undefined) {
        next = children.length;
        children.push(new Map());
        shortestLength.push(0);
        children[state]!.set(symbol, next);
      }
      state = next;
    }
    shortestLength[state] = shortestLength[state] === 0 ? keyword.length : Math.min(shortestLength[state]!, keyword.length);
  }

  // Table entries hold a row offset and a keyword length in 16 bits each.
  if (children.length * classes > 0xffff || lowered.some((keyword) => keyword.length > 0xffff)) throw new Error('too many keywords');

  // The complete transition table, breadth first: a missing edge goes where the longest proper suffix's state goes.
  const next = new Uint16Array(children.length * classes);
  const fail = new Uint16Array(children.length);
  const queue: number[] = [];
  for (let symbol = 1; symbol < classes; symbol++) {
    const child = children[0]!.get(symbol);
    if (child !== undefined) queue.push(child);
    next[symbol] = child ?? 0;
  }
  for (let head = 0; head < queue.length; head++) {
    const state = queue[head]!;
    const suffix = shortestLength[fail[state]!]!;
    if (suffix !== 0 && (shortestLength[state] === 0 || suffix < shortestLength[state]!)) shortestLength[state] = suffix;
    for (let symbol = 1; symbol < classes; symbol++) {
      const child = children[state]!.get(symbol);
      const fallback = next[fail[state]! * classes + symbol]!;
      if (child === undefined) {
        next[state * classes + symbol] = fallback;
      } else {
        fail[child] = fallback;
        next[state * classes + symbol] = child;
        queue.push(child);
      }
    }
  }
  // One load a character: each entry is the next state's row offset, and above it the shortest keyword ending there.
  const table = new Uint32Array(children.length * classes);
  for (let entry = 0; entry < table.length; entry++) table[entry] = (next[entry]! * classes) | (shortestLength[next[entry]!]! << 16);

  return () => {
    let row = 0;
    return {
      scan(piece) {
        let at = row;
        let last = NO_KEYWORD;
        for (let i = 0; i < piece.length; i++) {
          const code = piece.charCodeAt(i);
          const entry = code < ASCII ? table[at + classOf[code]!]! : 0;
          at = entry & 0xffff;
          if (entry > 0xffff) last = i + 1 - (entry >>> 16);
        }
        row = at;
        return last;
      },
      reset() {
        row = 0;
      },
    };
  };
}
