import type { ChatMessage } from '../protocol/chat.js';
import type { ImageInput } from '../protocol/types.js';
import { redactOutbound, redactText, redactValue } from '../redaction/index.js';
import { diskFailure } from './folders.js';
import { conversationFromEvents, trimHistory } from './history.js';
import { appendEvents, createSession, forkSession, readAllEvents, promptEvent, syncSession, unlockSession, type Labels, type Launch, type Session } from './store.js';

export const DEFAULT_MAX_CONTEXT_CHARS = 400_000;

/** The title of a session whose first prompt is images alone. */
const imagesTitle = (images: ImageInput[] = []) => `(${images.length} image${images.length === 1 ? '' : 's'})`;

/**
 * How a run meets its session: a new one, one to continue (opened and locked
 * before the run, so a missing or busy session is a usage error before it
 * starts), or a fork of one (whose existence was checked the same way).
 */
export type SessionPlan = { kind: 'new' } | { kind: 'resume'; session: Session } | { kind: 'fork'; parentId: string };

export type RecorderOptions = Launch & {
  root: string;
  plan: SessionPlan;
  cwd: string;
  provider: string;
  model: string;
  /** The history's budget (--max-context-chars); the new prompt counts against it. */
  maxContextChars?: number;
  /** Credentials in use: the prompt is redacted before it is stored, like every event. */
  secrets?: string[];
  /** A new session's or a fork's id, title and tags, when the user chose them. */
  labels?: Labels;
};

/** No sessionId when the session could not be written (a full disk): the run goes on unrecorded, and a warning says so. */
export type RunStart = { sessionId?: string; history: ChatMessage[]; warnings: string[] };

export type SessionRecorder = {
  /** The run starts: create, continue or fork the session, store the prompt, and hand back the history. */
  begin(prompt: string, images?: ImageInput[]): Promise<RunStart>;
  /**
   * A stamped output event, stored in order (appended within FLUSH_DELAY_MS, at once at a tool boundary; nothing is
   * stored before begin). While more than MAX_BACKLOG_CHARS wait for the disk, a promise: the caller waits for it
   * before the next event, so a disk slower than the run never has it hold a huge answer's deltas.
   */
  record(event: object): Promise<void> | void;
  /** Stores what is pending (what fails to be stored is the warning's): resolves once the writes so far are done. */
  written(): Promise<void>;
  /** Stores what is pending, flushes it to the disk, writes the metadata and releases the session. */
  finish(): Promise<void>;
  /** Once, after a write failed: the warning that says the session could not be written, and why. */
  takeWarning(): string | undefined;
};

/**
 * How long an event may wait to be appended, so that deltas arriving together
 * share one write. A run killed at any moment has kept everything it streamed
 * more than 100 ms before: this delay, plus a write that was already under way.
 */
export const FLUSH_DELAY_MS = 40;

/**
 * Appends begin at least this far apart, so that a fast stream's deltas still share writes. Within that, an event
 * is appended once it is on its way out (setImmediate: after the output's own writes), not on a timer that could
 * fire just as the next chunk arrives and hold it up.
 */
const WRITE_SPACING_MS = 20;

/** How much may wait to be appended, in characters of the events' strings (a delta, a tool's output). */
export const MAX_BACKLOG_CHARS = 4 << 20;

/** An event's size as the backlog counts it: its own strings (a spooled final's text is in its file). */
function charsOf(event: object): number {
  let chars = 0;
  for (const key in event) {
    const field = (event as Record<string, unknown>)[key];
    if (typeof field === 'string') chars += field.length;
  }
  return chars;
}

/** Events after which a run may sit still for long (a command runs, a model thinks): appended at once. */
const BOUNDARIES = new Set(['tool_call', 'tool_result', 'run_end']);

/** The warning for a session that could not be written: stdout is what the client reads, so the run goes on. */
function unwritten(error: unknown, secrets: readonly string[] | undefined, id?: string): string {
  const why = diskFailure(error) ?? (error as Error)?.message ?? String(error);
  const which = id ? `The session ${id}` : 'The session';
  return redactOutbound(`${which} could not be written: ${why}. The run goes on; it is not recorded from here.`, { secrets });
}

/**
 * Records a run in its session: the (redacted) prompt, then the run's own
 * stream-json output events, appended as whole lines in the order they come,
 * under the session's lock. A failed write (a full disk) stops the recording,
 * not the run: takeWarning() says so once.
 */
export function createRecorder(options: RecorderOptions): SessionRecorder {
  const { root, plan, cwd, provider, model, secrets, profile, script } = options;
  let session: Session | undefined;
  let pending: object[] = [];
  let pendingChars = 0;
  /** Characters recorded and not yet appended (or failed). */
  let backlog = 0;
  let timer: NodeJS.Timeout | undefined;
  let soon: NodeJS.Immediate | undefined;
  let lastWrite = -Infinity;
  let writes: Promise<void> = Promise.resolve();
  let failure: unknown;
  let warned = false;

  // Each batch is appended after the one before (ordered, never concurrent); after a failed one, none is, so no gap.
  const flush = () => {
    clearTimeout(timer);
    clearImmediate(soon);
    [timer, soon] = [undefined, undefined];
    if (!session || pending.length === 0) return;
    lastWrite = performance.now();
    const [target, batch, chars] = [session, pending, pendingChars];
    [pending, pendingChars] = [[], 0];
    writes = writes
      .then(() => (failure ? undefined : appendEvents(target, batch, { metadata: false })))
      .catch((error) => void (failure ??= error))
      .then(() => void (backlog -= chars));
  };

  /** What is pending appended: resolves once every write so far is done (a failed one included). */
  const written = (): Promise<void> => {
    flush();
    return writes;
  };

  return {
    async begin(prompt, images) {
      const stored = redactText(prompt, { secrets });
      const { labels } = options;
      const warnings: string[] = [];
      try {
        if (plan.kind === 'new') session = await createSession({ root, cwd, provider, model, profile, script, prompt: stored || imagesTitle(images), secrets, ...labels });
        else if (plan.kind === 'fork') session = await forkSession(root, plan.parentId, { cwd, provider, model, profile, script, secrets, ...labels });
        else session = plan.session;
      } catch (error) {
        if (!diskFailure(error)) throw error;
        // a full disk: the run goes on unrecorded (createSession left no folder behind)
        warned = true;
        return { history: [], warnings: [unwritten(error, secrets)] };
      }
      const onDamaged = (message: string) => warnings.push(`${message} That line was skipped.`);
      const earlier = plan.kind === 'new' ? [] : conversationFromEvents(await readAllEvents(session, { onDamaged }));
      const budget = Math.max(0, (options.maxContextChars ?? DEFAULT_MAX_CONTEXT_CHARS) - prompt.length);
      const { messages, trimmed } = trimHistory(earlier, budget);
      // an image's data may hold a credential in use, base64-encoded like the image
      await appendEvents(session, [redactValue(promptEvent(stored, images), { secrets })]).catch((error) => {
        failure = error;
        warned = true;
        warnings.push(unwritten(error, secrets, session!.id));
      });
      if (trimmed) warnings.push(`The session's history was longer than --max-context-chars (${options.maxContextChars ?? DEFAULT_MAX_CONTEXT_CHARS}): its oldest turns were left out.`);
      return { sessionId: session.id, history: messages, warnings };
    },
    record(event) {
      if (!session || failure) return;
      pending.push(event);
      const chars = charsOf(event);
      pendingChars += chars;
      backlog += chars;
      if (BOUNDARIES.has((event as { type?: unknown }).type as string)) flush();
      else if (performance.now() - lastWrite >= WRITE_SPACING_MS) soon ??= setImmediate(flush);
      else timer ??= setTimeout(flush, FLUSH_DELAY_MS);
      if (backlog <= MAX_BACKLOG_CHARS) return;
      return written();
    },
    written,
    async finish() {
      // A resumed session was locked before the run; release it even if the run never started.
      const held = session ?? (plan.kind === 'resume' ? plan.session : undefined);
      if (!held) return;
      try {
        await written();
        if (session && !failure) await syncSession(session).catch((error) => void (failure ??= error));
      } finally {
        await unlockSession(held).catch((error) => void (failure ??= error));
      }
    },
    takeWarning() {
      if (!failure || warned) return undefined;
      warned = true;
      return unwritten(failure, secrets, session?.id);
    },
  };
}
