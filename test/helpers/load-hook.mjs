// A module loader hook (node --import): prints every file module the process loads on stderr, one per line.
export async function load(url, context, next) {
  if (url.startsWith('file:')) process.stderr.write(`[loaded] ${url}\n`);
  return next(url, context);
}
