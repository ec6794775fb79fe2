import { execFile } from 'node:child_process';

/** What a run printed on a pseudo-terminal (util-linux `script`), stdout and stderr both, as the bytes the terminal got. */
export function onTerminal(argv: string[], options: { cwd?: string; env: NodeJS.ProcessEnv; columns?: number }): Promise<string> {
  const quoted = argv.map((arg) => `'${arg.replace(/'/g, `'\\''`)}'`).join(' ');
  // a pseudo-terminal made without a terminal around it has no size: give it one
  const command = `stty cols ${options.columns ?? 100} rows 40; ${quoted}`;
  return new Promise((resolve, reject) => {
    execFile('script', ['-qec', command, '/dev/null'], { env: options.env, cwd: options.cwd }, (error, terminal) => (error ? reject(error) : resolve(terminal)));
  });
}

/** The lines a terminal shows for those bytes: colours dropped, `\r` returning to the line's start, ESC[K erasing the rest of it. */
export function screenLines(raw: string): string[] {
  const lines: string[] = [];
  let line: string[] = [];
  let column = 0;
  const text = raw.replace(/\x1b\[[0-9;]*m/g, '');
  for (let i = 0; i < text.length; i++) {
    if (text.startsWith('\x1b[K', i)) {
      line.length = column;
      i += 2;
    } else if (text[i] === '\r') column = 0;
    else if (text[i] === '\n') {
      lines.push(line.join(''));
      [line, column] = [[], 0];
    } else line[column++] = text[i]!;
  }
  if (line.length > 0) lines.push(line.join(''));
  return lines;
}

/** A whole progress line of the text format. */
export const PROGRESS_LINE = /^\[(tool|ok|error|zero)\] \S.*$/;
