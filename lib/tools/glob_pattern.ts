import picomatch from 'picomatch';

/**
 * picomatch (behind both the glob tool and grep's glob filter) turns a glob into a backtracking RegExp:
 * "*a*a*a*ab" takes seconds against one long file name, and each extra "*" multiplies that.
 * So a glob may have only a few "*" per path segment and a few "**" segments, and extglobs
 * ("+(a*)" is a nested quantifier, catastrophic on 40 characters) are off: their characters match literally.
 */
export const MAX_STARS_PER_SEGMENT = 3;
export const MAX_GLOBSTARS = 3;

/** Throws a message the model can act on when `glob` has more wildcards than can be matched quickly. */
export function checkGlobComplexity(glob: string): void {
  const segments = glob.split('/');
  const globstars = segments.filter((segment) => segment === '**').length;
  if (globstars > MAX_GLOBSTARS) {
    throw new Error(`Glob "${glob}" has ${globstars} "**" segments; at most ${MAX_GLOBSTARS} are allowed, so that matching stays fast.`);
  }
  for (const segment of segments) {
    if (segment === '**') continue;
    // A run of "*" is one wildcard; "?" matches exactly one character and cannot backtrack.
    const stars = segment.match(/\*+/g)?.length ?? 0;
    if (stars > MAX_STARS_PER_SEGMENT) {
      throw new Error(`Glob "${glob}" has ${stars} "*" in the path segment "${segment}"; at most ${MAX_STARS_PER_SEGMENT} per segment are allowed, so that matching stays fast.`);
    }
  }
}

/** A matcher for a glob that passed checkGlobComplexity, with the same options the glob tool gives tinyglobby. */
export function globMatcher(glob: string): (path: string) => boolean {
  checkGlobComplexity(glob);
  return picomatch(glob, { dot: true, noextglob: true });
}
