import { readRegularFile } from '../files/bounded.js';
import { NotRegularFileError } from '../files/open.js';
import { homedir, userInfo } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { ProviderError, describeErrno } from '../errors.js';

/** A JSON object as a config file holds it. */
export type ConfigObject = Record<string, unknown>;

/**
 * One config file as read: the user's (trusted, it is yours) or the project's
 * (`.zero/config.json` of the working directory, which a cloned repository may
 * have brought: it may not widen what the user's file allows).
 */
export type ConfigLayer = { scope: 'user' | 'project'; file: string; document: ConfigObject };

/**
 * The user file ($XDG_CONFIG_HOME/zero/config.json, else ~/.config/zero/config.json), then the project's
 * .zero/config.json. A relative XDG_CONFIG_HOME or HOME (`"~/.config"` quoted in a Dockerfile's ENV) is ignored, as
 * the XDG spec says and Go's os.UserConfigDir refuses it: read from the working directory, it would make a file a
 * cloned repository brought the trusted user file.
 */
export function configPaths(cwd: string, env: NodeJS.ProcessEnv): string[] {
  const home = [env.HOME, homedir()].find((path) => path && isAbsolute(path)) ?? userInfo().homedir;
  const configHome = env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : join(home, '.config');
  return [join(configHome, 'zero', 'config.json'), join(cwd, '.zero', 'config.json')];
}

export function invalidConfig(file: string, problem: string): ProviderError {
  return new ProviderError(`Invalid config file ${file}: ${problem}`);
}

export const isConfigObject = (value: unknown): value is ConfigObject => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * A field as Zero's decoder finds it: the name in any case (`ActiveProvider`,
 * `BaseURL`), the last one in the object when it appears in several.
 * Undefined when absent; `null` counts as absent too, as it does in Zero.
 */
export function fieldOf(object: ConfigObject, name: string): unknown {
  const wanted = name.toLowerCase();
  let found: unknown;
  for (const key of Object.keys(object)) if (key.toLowerCase() === wanted) found = object[key];
  return found === null ? undefined : found;
}

/** The first of several spellings of a field (camelCase, snake_case) that holds a value other than an empty string. */
export function firstField(object: ConfigObject, ...names: string[]): unknown {
  return names.map((name) => fieldOf(object, name)).find((value) => value !== undefined && value !== '');
}

/** Far more than any config file: a file this large is not one, and is not read into memory. */
const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

/** The parser's message without the text it quotes, nor the character it stopped at: the file may be a link to something secret. */
const parserMessage = (error: Error) =>
  error.message.startsWith('Unexpected token') ? 'an unexpected character' : error.message.replace(/, ".*"(\.\.\.)? is not valid JSON$/s, ' is not valid JSON');

/**
 * One config file, or undefined when it does not exist. Only a regular file is
 * read: a repository may hold a link to a FIFO or a device, which would hang the run or fill memory.
 */
export async function readConfigFile(file: string): Promise<ConfigObject | undefined> {
  let text: string;
  try {
    // opened without waiting and checked on the descriptor: a FIFO planted as .zero/config.json held zero, deaf to signals
    text = (await readRegularFile(file, file, MAX_CONFIG_BYTES, () => new Error(`larger than ${MAX_CONFIG_BYTES} bytes.`))).bytes.toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (error instanceof NotRegularFileError) throw invalidConfig(file, `it is ${error.kind}, not a regular file.`);
    throw invalidConfig(file, (error as NodeJS.ErrnoException).code ? describeErrno(error as NodeJS.ErrnoException) : (error as Error).message);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalidConfig(file, `not valid JSON (${parserMessage(error as Error)}).`);
  }
  if (!isConfigObject(value)) throw invalidConfig(file, 'expected a JSON object.');
  return value;
}

/** The config files that exist, the user's first. */
export async function readConfigLayers(cwd: string, env: NodeJS.ProcessEnv): Promise<ConfigLayer[]> {
  const [user, project] = configPaths(cwd, env);
  const layers: ConfigLayer[] = [];
  for (const [scope, file] of [['user', user], ['project', project]] as const) {
    const document = await readConfigFile(file!);
    if (document) layers.push({ scope, file: file!, document });
  }
  return layers;
}
