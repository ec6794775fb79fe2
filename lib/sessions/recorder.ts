import type { ChatMessage } from '../providers/types.js';
import { redactText } from '../redaction/index.js';
import { conversationFromEvents, trimHistory } from './history.js';
import { appendEvents, createSession, forkSession, readAllEvents, promptEvent, unlockSession, type Session } from './store.js';

export const DEFAULT_MAX_CONTEXT_CHARS = 400_000;

/**
 * How a run meets its session: a new one, one to continue (opened and locked
 * before the run, so a missing or busy session is a usage error before it
 * starts), or a fork of one (whose existence was checked the same way).
 */
export type SessionPlan = { kind: 'new' } | { kind: 'resume'; session: Session } | { kind: 'fork'; parentId: string };

export type RecorderOptions = {
  root: string;
  plan: SessionPlan;
  cwd: string;
  provider: string;
  model: string;
  /** The history's budget (--max-context-chars); the new prompt counts against it. */
  maxContextChars?: number;
  /** Credentials in use: the prompt is redacted before it is stored, like every event. */
  secrets?: string[];
};

export type RunStart = { sessionId: string; history: ChatMessage[]; warnings: string[] };

export type SessionRecorder = {
  /** The run starts: create, continue or fork the session, store the prompt, and hand back the history. */
  begin(prompt: string): Promise<RunStart>;
  /** A stamped output event, stored in order (batched; nothing is stored before begin). */
  record(event: object): void;
  /** Stores what is pending and releases the session. */
  finish(): Promise<void>;
};

const BATCH = 64;

/**
 * Records a run in its session: the (redacted) prompt, then the run's own
 * stream-json output events, in whole-line batches, under the session's lock.
 */
export function createRecorder(options: RecorderOptions): SessionRecorder {
  const { root, plan, cwd, provider, model, secrets } = options;
  let session: Session | undefined;
  let pending: object[] = [];
  let writes: Promise<void> = Promise.resolve();

  const flush = () => {
    if (!session || pending.length === 0) return writes;
    const batch = pending;
    const target = session;
    pending = [];
    writes = writes.then(() => appendEvents(target, batch));
    return writes;
  };

  return {
    async begin(prompt) {
      const stored = redactText(prompt, { secrets });
      if (plan.kind === 'new') session = await createSession({ root, cwd, provider, model, prompt: stored, secrets });
      else if (plan.kind === 'fork') session = await forkSession(root, plan.parentId, { cwd, provider, model, secrets });
      else session = plan.session;
      const earlier = plan.kind === 'new' ? [] : conversationFromEvents(await readAllEvents(session));
      const budget = Math.max(0, (options.maxContextChars ?? DEFAULT_MAX_CONTEXT_CHARS) - prompt.length);
      const { messages, trimmed } = trimHistory(earlier, budget);
      await appendEvents(session, [promptEvent(stored)]);
      const warnings = trimmed ? [`The session's history was longer than --max-context-chars (${options.maxContextChars ?? DEFAULT_MAX_CONTEXT_CHARS}): its oldest turns were left out.`] : [];
      return { sessionId: session.id, history: messages, warnings };
    },
    record(event) {
      if (!session) return;
      pending.push(event);
      if (pending.length >= BATCH) void flush();
    },
    async finish() {
      // A resumed session was locked before the run; release it even if the run never started.
      const held = session ?? (plan.kind === 'resume' ? plan.session : undefined);
      if (!held) return;
      await flush();
      await unlockSession(held);
    },
  };
}
