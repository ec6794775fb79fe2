import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { zeroHere } from './cli.js';
import { cleanEnv, jsonLines, tempDir, writeScript } from './zero.js';

export type RecordedSession = {
  /** ZERO_HOME of the session, and an environment that uses it. */
  home: string;
  env: NodeJS.ProcessEnv;
  id: string;
  /** Its events.jsonl: each run's prompt, then that run's events. */
  file: string;
  text: string;
  /** The runIds of its two runs, in order. */
  runIds: string[];
};

/** A real session of two runs, recorded by `zero exec --provider scripted` (in this process): a run with a tool call, then a `--resume`d one. */
export async function recordSession(t: { teardown(fn: () => void): void }, extra: string[] = []): Promise<RecordedSession> {
  const home = tempDir(t);
  const env = cleanEnv({ ZERO_HOME: home });
  const cwd = tempDir(t, { 'notes.txt': 'the launch moves to Friday\n' });
  const run = async (turns: unknown[], args: string[]) => {
    const script = writeScript(tempDir(t), turns);
    const { stdout } = await zeroHere(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, '-C', cwd, ...extra, ...args], { env });
    return String(jsonLines(stdout)[0]!.runId);
  };
  const first = await run([{ chunks: ['Let me look.'], toolCalls: [{ id: 'c1', name: 'read_file', args: { path: 'notes.txt' } }] }, { text: 'The launch moves to Friday.' }], ['When is the launch?']);
  const second = await run([{ text: 'At noon.' }], ['--resume', 'And the time?']);
  const [id] = readdirSync(join(home, 'sessions'));
  const file = join(home, 'sessions', id!, 'events.jsonl');
  return { home, env, id: id!, file, text: readFileSync(file, 'utf8'), runIds: [first, second] };
}
