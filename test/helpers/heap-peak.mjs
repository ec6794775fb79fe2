// Preloaded (node --expose-gc --import) into a process under test: every few milliseconds a full garbage
// collection, then the heap in use; at exit the highest, on stderr as `[heap-peak] BYTES`. What survives a
// collection is what the process holds, so the peak measures what it keeps, not the garbage it makes.
let peak = 0;
const sample = () => {
  globalThis.gc();
  peak = Math.max(peak, process.memoryUsage().heapUsed);
};
setInterval(sample, 2).unref();
process.on('exit', () => {
  sample();
  process.stderr.write(`[heap-peak] ${peak}\n`);
});
