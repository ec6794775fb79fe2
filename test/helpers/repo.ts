import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../../lib/package.js';

/**
 * Paths in the repository, the same whether the tests run from their TypeScript sources (tsx) or compiled into
 * dist/test/ (npm test): a path relative to the test file would point into dist/ there.
 */
export const REPO = packageRoot();

export function repoPath(...parts: string[]): string {
  return join(REPO, ...parts);
}

const FROM_SOURCE = import.meta.url.endsWith('.ts');

/** One of the repository's own modules (`lib/cli/signals`), as the running tests load it: its source, or its build. */
export function ownModule(path: string): string {
  return pathToFileURL(FROM_SOURCE ? repoPath(`${path}.ts`) : repoPath('dist', `${path}.js`)).href;
}

/** The TypeScript loader this process runs with, for a child node that loads own modules the same way. */
export const TS_LOADER = FROM_SOURCE ? ['--import=tsx'] : [];
