import { Readable } from 'node:stream';
import { SPOOL_AFTER_CHARS } from '../files/text-spool.js';
import { CancelledError, UsageError } from '../errors.js';
import { execChain, reportEvents, reportFailure, type ExecInput } from '../pipeline.js';
import { NO_INPUT } from '../protocol/combine.js';
import { DEFAULT_MAX_LINE_BYTES } from '../protocol/lines.js';
import { loadConfig, type ZeroConfig } from '../providers/config.js';
import { chooseProvider, createProvider, credentialsInUse, priceOf } from '../providers/index.js';
import { runLimits } from './limit-flags.js';
import { answerWarnings, readAnswerSchema } from './answer-flags.js';
import { DEFAULT_MAX_TURNS } from '../agent/run.js';
import { planTools, UNSAFE_WARNING } from '../tools/permissions.js';
import { allTools, toolboxFor } from '../tools/registry.js';
import { shellSetup, type ShellSetup } from './shell-settings.js';
import { startMcp } from './mcp-setup.js';
import { formatToolListing, listingWarnings, toolListingRun } from './list-tools.js';
import { createRecorder, type SessionPlan, type SessionRecorder } from '../sessions/recorder.js';
import { diskFailure, latestSessionFor, lockSession, openSession, prepareStore, sessionsRoot, type Launch } from '../sessions/index.js';
import { launchOf, providerFlags, sessionProviderError } from './resume.js';
import { checkApiKey } from './api-key.js';
import type { CliIO } from './io.js';
import { inputFile, openInputFile, readPromptFile } from './input-files.js';
import { captureConsole, debugReporter, deliver, type RunControl } from './process.js';
import { setupSignal } from './signals.js';
import { screenFor } from './screen.js';
import { STDIN, execSettings, outputFormatFromArgv, schemaVersionFromArgv, type ExecSettings, type RawExecOptions } from './options.js';
import type { ToolPlan } from '../tools/permissions.js';
import type { ProviderChoice, ProviderSettings } from '../providers/index.js';
import type { Provider } from '../providers/types.js';
import { checkNewSessionId } from './session-flags.js';
import { discardWorktree, movedInto, prepareWorktree, type Worktree } from './worktree.js';

export const NO_PROMPT_TEXT = 'No prompt given. Pass it as arguments, with --file PATH, or on stdin (echo "…" | zero exec).';
export const POSITIONAL_WITH_STREAM_JSON = 'Stream-json input does not accept positional prompt text. Pipe JSONL or use --file.';

/** The run that a signal cancelled while it was set up: nothing is left to stop. */
const SETUP_CANCELLED: RunControl = { cancel: () => {}, silence: () => {} };

/** Where the prompt comes from: argv, --file, and stdin (`-f -`, or no words with stdin piped) for text; --file or stdin, streamed, for stream-json. */
async function execInput(settings: ExecSettings, io: CliIO, signal: AbortSignal): Promise<{ input: ExecInput; source?: Readable }> {
  const { words } = settings;
  const file = inputFile(settings.file);
  if (settings.inputFormat === 'text') {
    let fileText = '';
    if (file !== undefined || (words.length === 0 && !io.stdin.isTTY)) {
      fileText = await readPromptFile(file ?? STDIN, io.stdin, { maxBytes: settings.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES, signal });
    }
    const prompt = [words.join(' '), fileText].map((part) => part.trim()).filter(Boolean).join('\n\n');
    if (!prompt) throw new UsageError(NO_PROMPT_TEXT);
    return { input: { format: 'text', prompt } };
  }
  if (words.length > 0) throw new UsageError(POSITIONAL_WITH_STREAM_JSON);
  const input: ExecInput = { format: 'stream-json', maxLineBytes: settings.maxLineBytes };
  if (file !== undefined && file !== STDIN) return { input, source: await openInputFile(file) };
  if (io.stdin.isTTY && file !== STDIN) throw new UsageError(NO_INPUT);
  return { input, source: io.stdin };
}

/** The session the run continues or forks, checked (and for --resume, locked) before the run starts. */
async function sessionPlan(settings: ExecSettings, root: string): Promise<SessionPlan> {
  const choice = settings.session;
  if (!choice) return { kind: 'new' };
  if ('fork' in choice) {
    await openSession(root, choice.fork);
    return { kind: 'fork', parentId: choice.fork };
  }
  const session = choice.resume === true ? await latestSessionFor(root, settings.cwd) : await openSession(root, choice.resume);
  await lockSession(session);
  return { kind: 'resume', session };
}

/** The run's recorder, the store checked first (a bad location is a usage error before run_start); none with --no-session. */
async function sessionRecorder(settings: ExecSettings, env: NodeJS.ProcessEnv, provider: { name: string; model: string } & Launch, secrets: string[]): Promise<SessionRecorder | undefined> {
  if (settings.noSession) return undefined;
  const root = sessionsRoot(env);
  await prepareStore(root).catch((error) => {
    // a new session on a disk that takes nothing (full, read-only): the recorder says so and the run goes on
    // unrecorded; one to resume or fork cannot be, and that is said before the run starts
    if (settings.session || !diskFailure(error)) throw error;
  });
  await checkNewSessionId(root, settings.labels);
  return createRecorder({ root, plan: await sessionPlan(settings, root), cwd: settings.cwd, ...provider, provider: provider.name, maxContextChars: settings.maxContextChars, secrets, labels: settings.labels });
}

/** --list-tools: the table, or a tool per line (json), or in stream-json a run of its own; needs no provider. */
async function listTools(settings: ExecSettings, tools: ToolPlan, io: CliIO, secrets: string[], stopServers: () => Promise<void>): Promise<void> {
  const { outputFormat: format, schemaVersion } = settings;
  // the MCP servers were started only to list their tools
  await stopServers();
  if (format !== 'stream-json') return deliver(io, Readable.from([...listingWarnings(tools.warnings, format, io), formatToolListing(tools.listing, format)]), Promise.resolve(0));
  const run = { cwd: settings.cwd, provider: settings.provider ?? io.env.ZERO_PROVIDER?.trim() ?? 'none', model: settings.model ?? 'none', warnings: tools.warnings };
  const { readable, exitCode } = reportEvents(toolListingRun(tools.listing, run), { format, schemaVersion, secrets, stderr: io.stderr });
  return deliver(io, readable, exitCode);
}

/** --reasoning-budget is Anthropic's extended thinking, -r a level any model provider takes: a flag that changes nothing says so. */
function reasoningWarnings({ reasoningBudget: budget, reasoningEffort: effort }: ExecSettings, choice: ProviderChoice): string[] {
  const anthropic = choice.kind.startsWith('anthropic');
  const warnings: string[] = [];
  if (budget !== undefined && !anthropic) warnings.push(`--reasoning-budget is ignored: it sets the extended thinking of the anthropic providers, and this run uses ${choice.kind} (an OpenAI-compatible server streams its reasoning without it).`);
  if (effort && budget !== undefined && anthropic) warnings.push(`--reasoning-effort ${effort} is ignored: --reasoning-budget ${budget} sets the thinking budget.`);
  if (effort && choice.kind === 'scripted') warnings.push(`--reasoning-effort ${effort} is ignored: the scripted provider does not reason.`);
  return warnings;
}

/** The provider the flags (or the session resumed) choose, its key checked before any request; `secrets` gets the keys it loads. */
async function chosenProvider(settings: ProviderSettings & { provider?: string }, secrets: string[], maxLineBytes?: number): Promise<{ choice: ProviderChoice; provider: Provider }> {
  const choice = chooseProvider({ ...settings, name: settings.provider });
  // Keys the config files hold are credentials in use too: redacted from here on.
  secrets.push(...credentialsInUse(settings.env ?? {}, choice, settings.config).filter((secret) => !secrets.includes(secret)));
  checkApiKey(choice, settings.env ?? {}, settings.config);
  // A read that waits here (a script that is a FIFO nobody writes) is stopped by a signal: the run then ends cancelled.
  return { choice, provider: await createProvider(choice, { maxLineBytes, signal: setupSignal() }) };
}

/**
 * The shell setup's notes join the plan's warnings. Which sandbox is in force ends the unsafe warning; else, when
 * commands run unconfined, it is a warning of its own at the start; else (they run in the sandbox) it is said once,
 * before the run's first bash call: a run that never runs a command is not told about it every time.
 */
function withStatement(plan: ToolPlan, shell: ShellSetup): { plan: ToolPlan; firstShellCall?: string } {
  const { statement } = shell;
  const unsafe = plan.warnings.indexOf(UNSAFE_WARNING);
  plan.warnings.unshift(...shell.warnings);
  if (!statement) return { plan };
  if (unsafe >= 0) plan.warnings[unsafe + shell.warnings.length] = `${UNSAFE_WARNING} ${statement}`;
  else if (shell.shell.sandbox === 'off') plan.warnings.push(statement);
  else return { plan, firstShellCall: statement };
  return { plan };
}

/**
 * The shell the run's commands get, its MCP servers started, and the tools the model may use with them; the
 * flags' own warnings (Zero's flags done otherwise here) and the servers' join the plan's. The caller stops the
 * servers (`mcp.close`), which are stopped here when the plan fails.
 */
async function shellAndTools(raw: RawExecOptions, settings: ExecSettings, env: NodeJS.ProcessEnv, config: ZeroConfig, secrets: string[], log: (line: string) => void) {
  const shell = await shellSetup(raw, settings, env);
  // a signal while the servers start cancels the run, the servers stopped
  const child = { env: shell.policy([settings.cwd], secrets).env, secrets, log, signal: setupSignal() };
  const mcp = await startMcp(raw, settings, config, child, allTools);
  try {
    const { plan, firstShellCall } = withStatement(planTools([...allTools, ...mcp.tools], { ...settings.permissions, shell: shell.shell }), shell);
    plan.warnings.push(...settings.warnings, ...mcp.warnings);
    return { shell, tools: plan, firstShellCall, mcp };
  } catch (error) {
    await mcp.close();
    throw error;
  }
}

/** `zero exec`: one run, reported on stdout in the chosen format; the process exits with run_end's code. */
export async function runExec(words: string[], raw: RawExecOptions, io: CliIO): Promise<void> {
  const secrets = credentialsInUse(io.env);
  const format = outputFormatFromArgv(['-o', raw.outputFormat ?? 'text']);
  const debug = debugReporter(io, Boolean(raw.debug) || io.env.ZERO_DEBUG === '1', secrets);
  captureConsole(debug.log);
  let worktree: Worktree | undefined;
  let stopMcp = async () => {};
  try {
    const given = execSettings(words, raw, io.env);
    if (given.listTools) {
      const { tools, mcp } = await shellAndTools(raw, given, io.env, await loadConfig(given.cwd, io.env), secrets, debug.log);
      stopMcp = mcp.close;
      return await listTools(given, tools, io, secrets, mcp.close);
    }
    const answer = await readAnswerSchema(raw, given.cwd, setupSignal());
    worktree = given.worktree && (await prepareWorktree(given.cwd, given.worktree, io.env));
    // the run, its tools, its config, its sandbox and its session are the worktree's
    const settings = movedInto(given, worktree);
    const config = await loadConfig(settings.cwd, io.env);
    const { maxRetries, timeoutMs, idleTimeoutMs, reasoningBudget, reasoningEffort } = settings;
    const limits = { maxRetries, timeoutMs, idleTimeoutMs, reasoningBudget, reasoningEffort };
    const flags = await providerFlags(settings, io.env);
    const { choice, provider } = await chosenProvider({ ...flags, cwd: settings.cwd, env: io.env, config, limits }, secrets, settings.maxLineBytes).catch((error: unknown) => Promise.reject(sessionProviderError(error, settings, flags)));
    const spending = runLimits(settings.limits, priceOf(choice, provider.model), provider.model);
    const { shell, tools, firstShellCall, mcp } = await shellAndTools(raw, settings, io.env, config, secrets, debug.log);
    stopMcp = mcp.close;
    const extraRoots = [...settings.extraRoots, ...shell.writeRoots];
    const { input, source } = await execInput(settings, io, setupSignal());
    const recorder = await sessionRecorder({ ...settings, session: flags.session ?? settings.session }, io.env, { name: provider.name, model: provider.model, ...launchOf(choice, flags.provider, io.env, config) }, secrets);
    const screen = screenFor(io, settings.outputFormat, { spinner: true, sessionHint: true });
    const chain = execChain({
      provider,
      cwd: settings.cwd,
      maxTurns: settings.maxTurns ?? config.maxTurns ?? DEFAULT_MAX_TURNS,
      toolbox: toolboxFor(tools, shell.policy([settings.cwd, ...extraRoots], secrets), firstShellCall, mcp.tools),
      warnings: [...config.warnings, ...tools.warnings, ...reasoningWarnings(settings, choice), ...answerWarnings(answer, choice), ...(worktree ? [worktree.note] : [])],
      extraRoots,
      input,
      multiTurn: settings.multiTurn,
      askPermissions: settings.permissionPrompt === 'stdio',
      permissionTimeoutMs: settings.permissionTimeoutMs,
      limits: spending,
      answer,
      // a long answer goes to an encrypted spool, not memory: the final is written from it in parts
      spoolAfterChars: SPOOL_AFTER_CHARS,
      session: recorder,
      output: { format: settings.outputFormat, schemaVersion: settings.schemaVersion, secrets, stderr: screen.progress, recorder, heartbeatMs: settings.heartbeatMs, permissionEvents: settings.permissionPrompt === 'stdio' },
      onFailure: debug.failure,
    });
    source?.pipe(chain);
    const from = input.format === 'text' ? 'the command line' : settings.file ?? 'stdin';
    const run = { cancel: chain.cancel, silence: screen.progress.silence };
    // The servers stop once run_end is written, before the exit; a lost stdout kills their groups (deliver).
    await deliver(screen.io, chain, chain.exitCode.finally(mcp.close), run, () => debug.log(`run started with provider ${provider.name}, model ${provider.model}; prompt from ${from}`));
  } catch (error) {
    await Promise.all([discardWorktree(worktree), stopMcp()]);
    const schemaVersion = schemaVersionFromArgv(raw.schemaVersion === undefined ? [] : ['--schema-version', raw.schemaVersion], io.env);
    const { readable, exitCode } = reportFailure(error, { format, schemaVersion, secrets, stderr: io.stderr }, debug.failure);
    // A signal that stopped the setup is the failure reported: deliver takes it as handled, and writes the report.
    await deliver(io, readable, exitCode, error instanceof CancelledError ? SETUP_CANCELLED : undefined);
  }
}
