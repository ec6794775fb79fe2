import { execFile } from 'node:child_process';

/**
 * What a run printed on a pseudo-terminal (util-linux `script`), stdout and stderr both, as the bytes the terminal
 * got. `pipeTo`: a shell command stdout is piped into, its own stdout on the same terminal (`tee log`).
 */
export function onTerminal(argv: string[], options: { cwd?: string; env: NodeJS.ProcessEnv; columns?: number; pipeTo?: string }): Promise<string> {
  const quoted = argv.map((arg) => `'${arg.replace(/'/g, `'\\''`)}'`).join(' ');
  // a pseudo-terminal made without a terminal around it has no size: give it one
  const command = `stty cols ${options.columns ?? 100} rows 40; ${quoted}${options.pipeTo ? ` | ${options.pipeTo}` : ''}`;
  return new Promise((resolve, reject) => {
    execFile('script', ['-qec', command, '/dev/null'], { env: options.env, cwd: options.cwd }, (error, terminal) => (error ? reject(error) : resolve(terminal)));
  });
}

/** A CSI sequence (`ESC [ params final`), an OSC one (`ESC ] … BEL`/`ESC \`), or another two-character escape. */
const ESCAPE = /^\x1b(?:\[([0-9;?]*)([@-~])|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[^[\]])/;

/**
 * The lines a terminal of `columns` shows for those bytes, as a terminal would draw them: text overwrites what is
 * under the cursor and wraps at the last column (without `columns`, lines are never wrapped); `\r`, `\b`, and the CSI cursor moves (A B C D G H) move the cursor;
 * ESC[K and ESC[2K erase (part of) a line, ESC[J and ESC[2J the screen; colours and other sequences change nothing.
 */
export function screenLines(raw: string, columns = Infinity): string[] {
  const rows: string[][] = [[]];
  let [row, column] = [0, 0];
  const line = () => (rows[row] ??= []);
  const moveTo = (toRow: number, toColumn: number) => {
    [row, column] = [Math.max(0, toRow), Math.min(columns - 1, Math.max(0, toColumn))];
    while (rows.length <= row) rows.push([]);
  };
  const csi = (params: string, final: string) => {
    const numbers = params.split(';').map((n) => Number.parseInt(n, 10));
    const n = Number.isNaN(numbers[0]) ? 1 : numbers[0]!;
    const mode = Number.isNaN(numbers[0]) ? 0 : numbers[0]!;
    if (final === 'A') moveTo(row - n, column);
    else if (final === 'B') moveTo(row + n, column);
    else if (final === 'C') moveTo(row, column + n);
    else if (final === 'D') moveTo(row, column - n);
    else if (final === 'G') moveTo(row, n - 1);
    else if (final === 'H') moveTo(n - 1, (Number.isNaN(numbers[1]) || numbers[1] === undefined ? 1 : numbers[1]) - 1);
    else if (final === 'K') rows[row] = mode === 0 ? line().slice(0, column) : mode === 1 ? [...Array(column + 1).fill(' '), ...line().slice(column + 1)] : [];
    else if (final === 'J') {
      if (mode === 2) rows.splice(0, rows.length, ...rows.map(() => []));
      else if (mode === 0) rows.splice(row, rows.length, line().slice(0, column));
    }
  };
  for (let i = 0; i < raw.length; i++) {
    const character = raw[i]!;
    if (character === '\x1b') {
      const escape = ESCAPE.exec(raw.slice(i, i + 256));
      if (escape) {
        if (escape[2]) csi(escape[1]!, escape[2]);
        i += escape[0].length - 1;
      }
    } else if (character === '\r') column = 0;
    else if (character === '\n') moveTo(row + 1, 0);
    else if (character === '\b') column = Math.max(0, column - 1);
    else if (character >= ' ' || character === '\t') {
      if (column >= columns) moveTo(row + 1, 0);
      const cells = line();
      while (cells.length < column) cells.push(' ');
      cells[column++] = character;
    }
  }
  while (rows.length > 1 && rows.at(-1)!.length === 0) rows.pop();
  return rows.map((cells) => cells.join('').trimEnd());
}

/** A whole progress line of the text format. */
export const PROGRESS_LINE = /^\[(tool|ok|error|zero)\] \S.*$/;
