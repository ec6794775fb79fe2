import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProviderError } from '../errors.js';
import { packageRoot } from '../package.js';

// The provider SDKs are optional dependencies: npm installs them unless told not to (`--omit=optional`, for a
// program that embeds only the stages, ~55 MB less). A provider whose SDK is missing fails its run, saying
// which package to install, instead of a module-resolution stack.

/** The range of the SDK zero-stream was built against (the newest majors may need a newer Node). */
function wantedRange(sdk: string): string {
  try {
    const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { optionalDependencies?: Record<string, string> };
    const range = pkg.optionalDependencies?.[sdk];
    return range ? `@${range}` : '';
  } catch {
    return '';
  }
}

/** The provider's module, loaded by `load`; a provider_error naming the package when its SDK is not installed. */
export async function withSdk<M>(sdk: string, provider: string, load: () => Promise<M>): Promise<M> {
  try {
    return await load();
  } catch (error) {
    // by its message: a loader hook (tsx, a test runner's) may hand the error on without its ERR_MODULE_NOT_FOUND code
    const message = error instanceof Error ? error.message : '';
    const missing = message.startsWith(`Cannot find package '${sdk}'`) || message.startsWith(`Cannot find module '${sdk}'`);
    if (!missing) throw error;
    throw new ProviderError(
      `The ${provider} provider needs the npm package ${sdk}, which is not installed (zero-stream's optional dependencies were left out). ` +
        `Install it where zero-stream is: npm install ${sdk}${wantedRange(sdk)} (with -g for a global zero).`,
      { cause: error },
    );
  }
}
