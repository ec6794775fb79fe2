/**
 * How much input was searched for a separator while `work` ran: the bytes a Buffer#indexOf or
 * #lastIndexOf went over (from its offset), and the UTF-16 units a String#indexOf or #split went over. Framing
 * that searches each byte once counts about the input's size; one that re-scans the unfinished tail of a line on
 * each chunk counts the line's length once per chunk. Deterministic, unlike a time, and blind to which of the
 * two ways (bytes or text) a framer searches.
 */
export async function searchedWhile(work: () => unknown): Promise<number> {
  let searched = 0;
  const restore = [
    spy(Buffer.prototype, 'indexOf', (self, args) => self.length - offset(args[1], self.length)),
    spy(Buffer.prototype, 'lastIndexOf', (self) => self.length),
    spy(String.prototype, 'indexOf', (self, args) => self.length - offset(args[1], self.length)),
    spy(String.prototype, 'split', (self) => self.length),
  ].map((install) => install((count) => (searched += count)));
  try {
    await work();
  } finally {
    for (const undo of restore) undo();
  }
  return searched;
}

const offset = (from: unknown, length: number) => (typeof from === 'number' ? Math.min(Math.max(from < 0 ? length + from : from, 0), length) : 0);

type Counter = (self: { length: number }, args: unknown[]) => number;
type Methods = Record<string, (...args: unknown[]) => unknown>;

/** Wraps a method so each call tallies what `counter` says; the function it returns puts the method back. */
function spy(target: object, name: string, counter: Counter) {
  const methods = target as Methods;
  return (tally: (count: number) => void) => {
    const original = methods[name]!;
    methods[name] = function (this: { length: number }, ...args: unknown[]) {
      tally(counter(this, args));
      return original.apply(this, args);
    };
    return () => void (methods[name] = original);
  };
}
