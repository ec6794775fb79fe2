import picocolors from 'picocolors';

// Colour for people at a terminal. Whether a stream wants it is decided per stream (lib/cli/io.ts wantsColor),
// never from the process's stdout as picocolors would, nor turned on in CI just because CI is set.

export type Palette = ReturnType<typeof picocolors.createColors>;

export const palette = (color: boolean): Palette => picocolors.createColors(color);
