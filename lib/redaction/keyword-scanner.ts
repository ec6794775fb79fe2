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

const ASCII = 128;
/** Every UTF-16 code unit: the class table covers them all, so the scan's loop has no branch for what is past ASCII. */
const CODE_UNITS = 0x10000;

/** The Aho–Corasick automaton of `keywords` (ASCII, matched ignoring case), as the scans below read it. */
interface Automaton {
  /** Per UTF-16 code unit, its class: 0 for every character no keyword holds. */
  readonly classOf: Uint8Array;
  readonly classes: number;
  /**
   * The complete transitions: `table[row + classOf[code]]` is the next state's row (its number × classes). 16-bit
   * when every row fits: half the cache of 32 bits, so the scan's one load a character hits it more often.
   */
  readonly table: Uint16Array | Uint32Array;
  /** The states where a keyword ends are numbered last: a row at or past this one is one of them (no second load to ask). */
  readonly acceptFrom: number;
  /** Per state (row / classes), the keywords (their indexes) that end there, suffixes included. */
  readonly ending: readonly (readonly number[])[];
}

function automaton(keywords: readonly string[]): Automaton {
  const lowered = keywords.map((keyword) => keyword.toLowerCase());
  // Characters no keyword holds are one class (0, every code unit past ASCII too): the table has a column per class
  // (it stays small enough to stay in cache).
  const classOf = new Uint8Array(CODE_UNITS);
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
  const ending: number[][] = [[]];
  for (const [index, keyword] of lowered.entries()) {
    if (keyword.length === 0) continue;
    let state = 0;
    for (let i = 0; i < keyword.length; i++) {
      const symbol = classOf[keyword.charCodeAt(i)]!;
      let next = children[state]!.get(symbol);
      if (next === undefined) {
        next = children.length;
        children.push(new Map());
        ending.push([]);
        children[state]!.set(symbol, next);
      }
      state = next;
    }
    ending[state]!.push(index);
  }

  // The complete transition table, breadth first: a missing edge goes where the longest proper suffix's state goes.
  const next = new Uint32Array(children.length * classes);
  const fail = new Uint32Array(children.length);
  const queue: number[] = [];
  for (let symbol = 1; symbol < classes; symbol++) {
    const child = children[0]!.get(symbol);
    if (child !== undefined) queue.push(child);
    next[symbol] = child ?? 0;
  }
  for (let head = 0; head < queue.length; head++) {
    const state = queue[head]!;
    // the keywords ending at the longest proper suffix end here too (it is earlier in breadth-first order)
    if (ending[fail[state]!]!.length > 0) ending[state] = [...ending[state]!, ...ending[fail[state]!]!];
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

  // renumbered: the states where no keyword ends first (the root stays 0: no keyword is empty), then the others
  const order = [...children.keys()].sort((a, b) => Number(ending[a]!.length > 0) - Number(ending[b]!.length > 0) || a - b);
  const numberOf = new Uint32Array(children.length);
  order.forEach((state, number) => (numberOf[state] = number));
  const table = children.length * classes <= 0x10000 ? new Uint16Array(children.length * classes) : new Uint32Array(children.length * classes);
  for (let state = 0; state < children.length; state++) {
    for (let symbol = 0; symbol < classes; symbol++) table[numberOf[state]! * classes + symbol] = numberOf[next[state * classes + symbol]!]! * classes;
  }
  const accepting = order.findIndex((state) => ending[state]!.length > 0);
  return {
    classOf,
    classes,
    table,
    acceptFrom: (accepting < 0 ? children.length : accepting) * classes,
    ending: order.map((state) => ending[state]!),
  };
}

/** Every keyword occurrence in text that arrives in pieces. */
export interface KeywordHitScanner {
  /**
   * The next piece of the text: `hit` for each keyword that ends in it, with where it starts (relative to the
   * piece's start, negative when it starts in an earlier piece) and its index in the keywords.
   */
  scan(piece: string, hit: (start: number, keyword: number) => void): void;
  /** A new text begins: no keyword spans what came before and what comes next. */
  reset(): void;
}

/** A factory of hit scanners for `keywords` (ASCII, matched ignoring case), the automaton built once. */
export function keywordHitScanners(keywords: readonly string[]): () => KeywordHitScanner {
  const { classOf, classes, table, acceptFrom, ending } = automaton(keywords);
  // one function for every scanner of the automaton, their state passed in: V8 then compiles it with the tables as constants
  const scanFrom = (scanner: { row: number }, piece: string, hit: (start: number, keyword: number) => void): void => {
    let at = scanner.row;
    for (let i = 0; i < piece.length; i++) {
      at = table[at + classOf[piece.charCodeAt(i)]!]!;
      if (at >= acceptFrom) for (const index of ending[(at / classes) | 0]!) hit(i + 1 - keywords[index]!.length, index);
    }
    scanner.row = at;
  };
  return () => {
    const state = { row: 0 };
    return {
      scan: (piece, hit) => scanFrom(state, piece, hit),
      reset() {
        state.row = 0;
      },
    };
  };
}

/** Which groups of keywords occur in a text, and where: what KeywordGroups.which finds. */
export interface Found {
  /** Per group, in their order, 1 when one of its keywords occurs in the text, else 0. */
  readonly groups: Uint8Array;
  /** With `locate`: per located group, where each of its keywords begins in the text, in ascending order. */
  readonly starts: readonly (readonly number[])[];
}

/** Which groups of keywords occur in a text (ASCII keywords, matched ignoring case), each character looked at once. */
export interface KeywordGroups {
  /** Whether a keyword of any group occurs in `text`. */
  some(text: string): boolean;
  /**
   * Which groups have a keyword in `text`, and with `locate`, where the keywords of each located group begin;
   * undefined when no keyword occurs (nothing is made for the common case).
   */
  which(text: string, locate?: boolean): Found | undefined;
}

/** `located`: the indexes of the groups whose keywords which() can also tell the starts of. */
export function keywordGroups(groups: readonly (readonly string[])[], located: readonly number[] = []): KeywordGroups {
  const groupOf = groups.flatMap((keywords, group) => keywords.map(() => group));
  const keywords = groups.flat();
  const { classOf, classes, table, acceptFrom, ending } = automaton(keywords);
  // per state, the groups with a keyword ending there
  const groupsAt = ending.map((ended) => [...new Set(ended.map((index) => groupOf[index]!))]);
  // per state, the located groups' keywords ending there, flat: pairs of its group's place in `located` and its
  // length, longest first (the earliest start first)
  const locatedAt = ending.map((ended) => {
    const pairs = new Map<string, [number, number]>();
    for (const index of ended) {
      const slot = located.indexOf(groupOf[index]!);
      if (slot >= 0) pairs.set(`${slot} ${keywords[index]!.length}`, [slot, keywords[index]!.length]);
    }
    return [...pairs.values()].sort((a, b) => b[1] - a[1]).flat();
  });
  return {
    some(text) {
      let at = 0;
      for (let i = 0; i < text.length; i++) {
        at = table[at + classOf[text.charCodeAt(i)]!]!;
        if (at >= acceptFrom) return true;
      }
      return false;
    },
    which(text, locate = false) {
      // up to the first keyword, as some() does (the common case: none at all); then noting every group
      const length = text.length;
      let at = 0;
      let i = 0;
      for (; i < length; i++) {
        at = table[at + classOf[text.charCodeAt(i)]!]!;
        if (at >= acceptFrom) break;
      }
      if (i === length) return undefined;
      const found = new Uint8Array(groups.length);
      const starts: number[][] = locate ? located.map(() => []) : [];
      let left = groups.length;
      // a keyword that begins before one that ends earlier (only when a keyword holds another in its middle)
      let unordered = false;
      // at a state where a keyword ends: noted, then on to the next such state (the same loop as up to the first)
      for (;;) {
        const state = (at / classes) | 0;
        for (const group of groupsAt[state]!) {
          left -= 1 - found[group]!;
          found[group] = 1;
        }
        if (!locate) {
          if (left === 0) break;
        } else {
          const pairs = locatedAt[state]!;
          for (let pair = 0; pair < pairs.length; pair += 2) {
            const list = starts[pairs[pair]!]!;
            const start = i + 1 - pairs[pair + 1]!;
            unordered ||= list.length > 0 && start < list[list.length - 1]!;
            list.push(start);
          }
        }
        for (i++; i < length; i++) {
          at = table[at + classOf[text.charCodeAt(i)]!]!;
          if (at >= acceptFrom) break;
        }
        if (i === length) break;
      }
      if (unordered) for (const list of starts) list.sort((a, b) => a - b);
      return { groups: found, starts };
    },
  };
}
