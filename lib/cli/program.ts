import { Command, Option } from 'commander';
import { packageRoot, packageVersion } from '../package.js';
import type { CliIO } from './io.js';
import { MAX_TIMER_MS, MAX_TIMER_SECONDS } from './option-values.js';
import { homedir } from 'node:os';
import { sessionsRoot } from '../sessions/paths.js';

// The shape of the command line: every command's flags and help. What a command does is imported only when it
// runs (`zero --version` and `zero --help` load none of it).

const EXEC_EXAMPLES = `
Examples:
  $ zero exec --provider scripted --script examples/readme-demo.jsonl "What is this repo?"
  $ zero exec -i stream-json -o stream-json < turns.jsonl | jq -c .
  $ zero exec -i stream-json -o stream-json --multi-turn --permission-prompt stdio   (a client on both pipes)
  $ zero exec -o json -f prompt.md -C ../other-repo
  $ zero exec --auto high --disabled-tools bash "Fix the failing test"
  $ zero exec --list-tools --skip-permissions-unsafe
  $ zero exec --resume "And the tests?"
  $ zero -p "Fix the failing test" --auto high --worktree -o stream-json
  $ OPENAI_BASE_URL=http://localhost:11434/v1 zero exec -m llama3.2 "Explain lib/"

Exit codes: 0 success, 1 internal error or stdout not writable, 2 usage, 3 provider, 4 turn limit,
129/130/143 cancelled by SIGHUP/SIGINT/SIGTERM (schema version 2: 130 for every signal; a second signal
kills the tools at once; run_end is still written), 141 stdout closed by its reader.

Providers: --provider (or --profile), else $ZERO_PROVIDER, else activeProvider (or the only profile) in
~/.config/zero/config.json or .zero/config.json, else the key that is set. A profile in those files named like a built-in provider
(scripted, openai, …) wins over the built-in one; a profile that cannot be used fails only a run that selects it.

Protocol reference and every flag: docs/protocol.md and docs/exec.md; the examples above and more (a demo
script, embedding, a conversation client) in examples/. Both are in the package: ${packageRoot()}`;

const VALIDATE_EXAMPLES = `
Examples:
  $ zero exec -o stream-json "hi" > run.jsonl && zero validate run.jsonl
  $ jq . run.jsonl | zero validate -o json
  $ zero validate --input turns.jsonl

Exit codes: 0 valid, 1 invalid, 2 usage.`;

const REPLAY_EXAMPLES = `
Examples:
  $ zero replay run.jsonl | my-client
  $ zero replay run.jsonl -o text --delay 50
  $ zero replay runs.jsonl --run run_20260101120000_abc123 --new-run-id

Several runs in the log (or several files, read as one log) and no --run: the first run is replayed.
Exit code: the recorded run's run_end exitCode (2 when the log is not a complete run).`;

/** The session path is the real default (or $ZERO_HOME's), home shown as ~. */
const renderExamples = (env: NodeJS.ProcessEnv) => `
Examples:
  $ zero exec -o stream-json "Fix the test" > run.jsonl && zero render run.jsonl > run.md
  $ zero render run.jsonl -o html > run.html
  $ zero render ${sessionsRoot(env).replace(homedir(), '~')}/zero_…/events.jsonl -o html > session.html   (session files carry the prompt)
  $ zero render ${sessionsRoot(env).replace(homedir(), '~')}/zero_… -o text | less   (a session folder, as plain text)
  $ jq . run.jsonl | zero render - --framing values`;


/** Repeatable flags gather their values. */
const collect = (value: string, previous: string[] = []) => [...previous, value];

const formatOption = (what = 'text | json | stream-json', fallback = 'text') => new Option('-o, --output-format <format>', what).default(fallback);
/**
 * -o/--output-format, and --format, hidden: the same setting (zero render's flag before it had -o); the last one
 * given wins (see command()).
 */
const withFormat = (made: Command, what?: string, fallback?: string) =>
  made.addOption(formatOption(what, fallback)).addOption(new Option('--format <format>').hideHelp());
const LOG_FILES = 'the log: files read in order as one log (a session folder: its events.jsonl); stdin for - or none';
const framingOption = () => new Option('--framing <mode>', 'lines (strict JSONL) | values (any JSON values, a top-level array included) | auto').default('auto');
const maxLineBytesOption = () => new Option('--max-line-bytes <n>', 'longest line (or JSON value) read (default: 16 MiB)');

/** Help asked for goes to stdout; help shown because a command is missing goes to stderr; errors are main's to word. */
const output = (io: CliIO) => ({ writeOut: (text: string) => void io.stdout.write(text), writeErr: (text: string) => void io.stderr.write(text), outputError: () => {} });

function command(parent: Command, name: string, io: CliIO): Command {
  const made = parent.command(name).exitOverride().configureOutput(output(io));
  return made.on('option:format', (value: string) => made.setOptionValueWithSource('outputFormat', value, 'cli'));
}

function execCommand(zero: Command, io: CliIO): void {
  withFormat(
    command(zero, 'exec', io)
      .description('Run one prompt through the agent and report what it does on stdout.')
      .argument('[prompt...]', 'prompt text (words are joined by spaces)')
      .addOption(new Option('-i, --input-format <format>', 'text | stream-json (JSONL events on stdin or --file)').default('text')),
  )
    .option('-p, --prompt <text>', 'prompt text, before the prompt words (repeatable; `zero -p TEXT` is `zero exec --prompt TEXT`)', collect)
    .option('-f, --file <path>', 'prompt file (with -i stream-json: the JSONL input)')
    .option('-m, --model <name>', 'model name')
    .option('--provider <name>', 'openai | anthropic | openai-compatible | anthropic-compatible | scripted | a profile from the config files (else $ZERO_PROVIDER; a profile named like a built-in provider wins over it)')
    .option('--profile <name>', 'a profile from the config files (the same as --provider NAME)')
    .option('--script <path>', "the scripted provider's JSONL script (else $ZERO_SCRIPT)")
    .option('-C, --cwd <dir>', 'working directory; relative paths, --file included, resolve after it')
    .option('--max-turns <n>', 'model turns before one last call asks for the answer and the run stops (exit 4; default $ZERO_MAX_TURNS, else maxTurns from the config files, else 50)')
    .option('--max-line-bytes <n>', 'longest accepted input line', String(16 * 1024 * 1024))
    .option('--max-retries <n>', 'retries of a model call refused with 429 or 5xx, with backoff honouring Retry-After (default 2)')
    .option('--timeout <seconds>', `limit for one whole model call (default 600; more than ${MAX_TIMER_SECONDS} is a usage error)`)
    .option('--idle-timeout <seconds>', `limit on the silence between two stream chunks (default 120; more than ${MAX_TIMER_SECONDS} is a usage error)`)
    .option('--auto <level>', 'low (the default) | medium: reads, writes inside the working directory and --add-dir, sandboxed shell commands | high: every tool')
    .option('--skip-permissions-unsafe', 'let the model write files and run shell commands without asking, and without the shell sandbox; wins over --auto')
    .option('--sandbox <mode>', 'where shell commands run: workspace-write (the default where bubblewrap works) | read-only | off')
    .option('--sandbox-network', 'let sandboxed shell commands reach the network (at --auto low and medium, each command then needs a permission)')
    .option('--env-pass <name>', 'pass this environment variable to shell commands even if it looks like a credential (globs allowed; repeatable)', collect)
    .option('--enabled-tools <names>', 'only these tools (comma or space separated; repeatable)', collect)
    .option('--disabled-tools <names>', 'never these tools (comma or space separated; repeatable)', collect)
    .option('--mcp-config <file>', 'MCP servers to start, as Claude Code writes them ({"mcpServers": {…}}), besides those of the config files (repeatable)', collect)
    .option('--mcp-timeout <seconds>', 'how long MCP servers have to start and list their tools (default 30)')
    .option('--add-dir <dir>', 'another directory write tools and sandboxed commands may change (repeatable)', collect)
    .option('--resume [id]', 'continue a session (without an id: the newest one for this working directory)')
    .option('--fork <id>', "start a new session from a copy of that session's history")
    .option('--no-session', 'record nothing: no session is written to disk (also ZERO_NO_SESSION=1)')
    .option('--max-context-chars <n>', 'budget for the history a resumed session sends (oldest turns trimmed first; default 400000)')
    .option('--schema-version <n>', "stream-json schema version 1 | 2 (else $ZERO_SCHEMA_VERSION, else the input events' version, else 1)")
    .option('--reasoning-budget <tokens>', 'let Anthropic models think first, with up to this many tokens (at least 1024; off by default)')
    .option('-r, --reasoning-effort <level>', "minimal | low | medium | high: OpenAI's reasoning_effort; for Anthropic a thinking budget of 1024 | 4096 | 10000 | 24000 tokens (--reasoning-budget wins)")
    .option('--multi-turn', 'with -i stream-json: every input message is a user turn of one conversation, answered as it comes; {"type":"interrupt"} stops the turn')
    .option('--permission-prompt <mode>', 'none (default: a tool that needs a permission is refused) | stdio (with --multi-turn and -o stream-json: ask the client, who answers with permission_response)')
    .option('--permission-timeout <seconds>', 'with --permission-prompt stdio: a request not answered within this many seconds is denied (default 300)')
    .option('--heartbeat <seconds>', 'with -o stream-json: write a heartbeat event when nothing else was written for this many seconds')
    .option('--output-schema <file>', 'the answer must be a JSON document that conforms to this JSON Schema (draft 2020-12 or 07); final.text is its JSON')
    .option('--output-retries <n>', 'with --output-schema: how many times an answer that does not conform is sent back with its errors (default 2)')
    .option('--max-budget-usd <dollars>', "stop before the next model call once the run has cost this much (error budget_exceeded, exit 4; needs the model's price)")
    .option('--max-tool-calls <n>', 'run at most this many tool calls; the next ends the run (error budget_exceeded, exit 4)')
    .option('--run-timeout <seconds>', 'a deadline for the whole run: the model call and running tools are stopped (error timeout, exit 4)')
    .option('--mode <name>', "Zero's presets smart | deep | fast | large | precise: here only their turn limit applies (deep 50, fast 15), with a warning")
    .option('--allow-escalation', "accepted for Zero's wrappers, with a warning: there is no escalate_model tool here")
    .option('--self-correct', "accepted for Zero's wrappers, with a warning: no tests or language servers run after an edit here")
    .option('-w, --worktree [name]', 'work in a git worktree of this repository, left for you to inspect (a name reuses that worktree; default task-<UTC time>)')
    .option('--worktree-dir <dir>', 'with --worktree: where worktrees go (default $ZERO_HOME/worktrees, else $XDG_STATE_HOME/zero/worktrees, else ~/.local/state/zero/worktrees)')
    .option('--init-session-id <id>', "the new session's id (letters, digits, _ and -), which --resume ID then finds")
    .option('--session-title <text>', "the new session's title (default: the start of the prompt)")
    .option('--tag <tag>', 'a label kept in the session and shown by zero sessions list (repeatable)', collect)
    .option('--list-tools', 'print the tools the model would see with these flags, and exit')
    .option('--no-notify', 'accepted for wrappers that pass it: a headless run has nothing to notify')
    .option('--debug', 'diagnostics and stack traces on stderr (also ZERO_DEBUG=1)')
    .addHelpText('after', EXEC_EXAMPLES)
    .action(async (words, options) => (await import('./exec.js')).runExec(words, options, io));
}

function sessionsCommand(zero: Command, io: CliIO): void {
  const sessions = zero.command('sessions').description('List, show and delete recorded sessions (see zero exec --resume / --fork).');
  withFormat(
    command(sessions, 'list', io)
      .description('Every session, newest first: id, updated time, events, cwd, title, its --tag labels, and for a fork its parent.')
      .option('-n, --limit <n>', 'the newest N only')
      .option('--cwd <dir>', 'only the sessions recorded in this working directory'),
  )
    .action(async (options) => (await import('./sessions.js')).runSessionsList(options, io));
  withFormat(
    command(sessions, 'rm', io)
      .description('Delete sessions (their folders); a session a run is using is refused.')
      .argument('<id...>', 'the session ids (zero_…)'),
  )
    .action(async (ids, options) => (await import('./sessions-remove.js')).runSessionsRemove(ids, options, io));
  withFormat(
    command(sessions, 'prune', io)
      .description('Delete the sessions not updated for DAYS days (fractions allowed); those in use are left.')
      .requiredOption('--older-than <days>', 'age in days since the last update'),
  )
    .action(async (options) => (await import('./sessions-remove.js')).runSessionsPrune(options, io));
  withFormat(
    command(sessions, 'show', io)
      .description("A session's events, as zero exec printed them, in any output format.")
      .argument('<id>', 'the session id (zero_…)'),
  )
    .action(async (id, options) => (await import('./sessions.js')).runSessionsShow(id, options, io));
}

function logCommands(zero: Command, io: CliIO): void {
  withFormat(
    command(zero, 'render', io)
      .description('A recorded log (zero exec -o stream-json, or a session file) as a transcript to read: Markdown, one self-contained HTML page, or plain text.')
      .argument('[files...]', LOG_FILES),
    'markdown | html | text',
    'markdown',
  )
    .addOption(framingOption())
    .addOption(maxLineBytesOption())
    .addHelpText('after', renderExamples(io.env))
    .action(async (file, options) => (await import('./render.js')).runRender(file, options, io));
  withFormat(
    command(zero, 'validate', io)
      .description("Check a log against the output schema and the protocol's order rules, per run.")
      .argument('[files...]', LOG_FILES),
    'text | json | stream-json (json: one object per problem, then a summary)',
  )
    .addOption(framingOption())
    .addOption(maxLineBytesOption())
    .option('--input', 'validate input events (the -i stream-json of zero exec) instead')
    .option('--max-problems <n>', 'problems printed at most (default: 50)')
    .addHelpText('after', VALIDATE_EXAMPLES)
    .action(async (file, options) => (await import('./validate.js')).runValidate(file, options, io));
  withFormat(
    command(zero, 'stats', io)
      .description('Per run of a log: user and model turns, tool calls by name and side effect, token totals, outcome and exit code.')
      .argument('[files...]', LOG_FILES),
    'text | json | stream-json (one JSON object per run)',
  )
    .addOption(framingOption())
    .addOption(maxLineBytesOption())
    .addHelpText('after', '\nExamples:\n  $ zero stats run.jsonl\n  $ zero stats a.jsonl b.jsonl              (several files: one log)\n  $ zero stats -o json run.jsonl | jq .tokens   (-o json: snake_case; -o stream-json: camelCase)')
    .action(async (file, options) => (await import('./stats.js')).runStats(file, options, io));
  command(zero, 'redact', io)
    .description('Write a log with every secret replaced by [REDACTED]; lines with nothing to redact come out byte-identical.')
    .argument('[files...]', LOG_FILES)
    .addOption(framingOption())
    .addOption(maxLineBytesOption())
    .addHelpText('after', '\nExamples:\n  $ zero redact run.jsonl > shareable.jsonl\n  $ jq . run.jsonl | zero redact > shareable.jsonl   # values framing: written back as JSONL')
    .action(async (file, options) => (await import('./redact.js')).runRedact(file, options, io));
  withFormat(
    command(zero, 'replay', io)
      .description('Re-emit a recorded run as zero exec printed it live, in any output format; exits with its exit code.')
      .argument('[files...]', LOG_FILES),
    'text | json | stream-json',
    'stream-json',
  )
    .addOption(framingOption())
    .addOption(maxLineBytesOption())
    .option('--delay <ms>', `milliseconds between events (at most ${MAX_TIMER_MS})`, '0')
    .option('--new-run-id', 'stamp the events with a fresh runId')
    .option('--run <id>', 'the run to replay, in a log of several runs (default: the first)')
    .addHelpText('after', REPLAY_EXAMPLES)
    .action(async (file, options) => (await import('./replay.js')).runReplay(file, options, io));
}

/** Every command of `zero`, as commander parses them; each action imports its runner when it runs. */
export function program(io: CliIO): Command {
  const zero = new Command('zero')
    .description('Run a coding agent headlessly; everything it does is reported as redacted JSON events.')
    .version(packageVersion(), '-V, --version', 'output the version number (also -v)')
    .exitOverride()
    .configureOutput(output(io))
    .addHelpText('after', '\n`zero -p TEXT [exec options]` is short for `zero exec --prompt TEXT [exec options]`.');
  execCommand(zero, io);
  sessionsCommand(zero, io);
  logCommands(zero, io);
  command(zero, 'completion', io)
    .description('Print a completion script for bash, zsh or fish.')
    .argument('<shell>', 'bash | zsh | fish')
    .addHelpText('after', '\nExamples:\n  $ eval "$(zero completion bash)"        # in ~/.bashrc\n  $ zero completion fish > ~/.config/fish/completions/zero.fish')
    .action(async (shell) => (await import('./completion.js')).runCompletion(shell, zero, io));
  return zero;
}
