/**
 * The earliest line among things that are still open (runs, their calls), when each one's line only moves
 * forward until it is gone: a min-heap whose keys are corrected when they reach the top, so asking costs
 * O(log n) however many things are open. `lineOf` gives a thing's line now, or undefined once it is gone.
 */
export function createEarliest<T>(lineOf: (item: T) => number | undefined) {
  const heap: { line: number; item: T }[] = [];
  const before = (a: number, b: number) => heap[a]!.line < heap[b]!.line;
  const swap = (a: number, b: number) => ([heap[a], heap[b]] = [heap[b]!, heap[a]!]);
  const up = (index: number) => {
    for (let parent = (index - 1) >> 1; index > 0 && before(index, parent); index = parent, parent = (index - 1) >> 1) swap(index, parent);
  };
  const down = (index: number) => {
    for (;;) {
      const left = 2 * index + 1;
      const smallest = [left, left + 1].filter((child) => child < heap.length).reduce((best, child) => (before(child, best) ? child : best), index);
      if (smallest === index) return;
      swap(index, smallest);
      index = smallest;
    }
  };
  const push = (item: T, line: number) => {
    heap.push({ line, item });
    up(heap.length - 1);
  };
  const popTop = () => {
    const last = heap.pop()!;
    if (heap.length === 0) return;
    heap[0] = last;
    down(0);
  };
  return {
    /** A thing that opened at `line`. */
    add: (item: T, line: number) => push(item, line),
    /** The earliest line of what is still open (Infinity when nothing is). */
    line(): number {
      while (heap.length > 0) {
        const top = heap[0]!;
        const now = lineOf(top.item);
        if (now === top.line) return now;
        popTop();
        if (now !== undefined) push(top.item, now);
      }
      return Infinity;
    },
  };
}
