import { hashedId, REDACTED_ID_PREFIX } from '../redaction/ids.js';
import type { PermissionAnswer, PermissionDesk } from './loop.js';

/** A `permission_response` input event, as the conversation hands it on. */
export type PermissionResponse = { id: string; decision: 'allow' | 'deny' | 'allow_always'; reason?: string };

export type PermissionCounter = PermissionDesk & {
  /** The client's answer: settles the request of that call, or is a notice when no request of that id waits. */
  answer(response: PermissionResponse): void;
  /** No more answers can come (the input ended, or failed): every request waiting, and every later one, is denied with this reason. */
  close(reason: string): void;
};

/** --permission-timeout's default: 300 s. */
export const DEFAULT_PERMISSION_TIMEOUT_MS = 300_000;

export const timedOut = (ms: number) => `No answer within ${ms / 1000} s (--permission-timeout): denied.`;

const answerOf = ({ decision, reason }: PermissionResponse, name: string): PermissionAnswer => {
  const because = reason ? ` Their reason: ${reason}` : '';
  if (decision === 'allow_always') return { action: 'allow', reason: `The client allowed ${name} for the rest of this session.${because}` };
  if (decision === 'allow') return { action: 'allow', reason: `The client allowed this ${name} call.${because}` };
  return { action: 'deny', reason: `The client denied permission to run this ${name} call.${because}` };
};

/**
 * Where a run's permission requests wait for the client (--permission-prompt stdio): each by its call's id. An
 * `allow_always` answer stands for every later call of that tool in the run. A request is denied when no answer
 * comes within `timeoutMs` or the input ends first (nobody can answer it), and cancelled when its signal
 * aborts (an interrupt, a signal).
 */
export function createPermissionDesk(notice: (message: string) => void, timeoutMs = DEFAULT_PERMISSION_TIMEOUT_MS): PermissionCounter {
  const waiting = new Map<string, { name: string; settle: (answer: PermissionAnswer) => void }>();
  const remembered = new Map<string, PermissionAnswer>();
  let closed: string | undefined;
  return {
    remembered: (name) => remembered.get(name),
    ask({ id, name }, signal) {
      if (closed !== undefined) return Promise.resolve({ action: 'deny', reason: closed });
      if (signal.aborted) return Promise.resolve({ action: 'cancel', reason: (signal.reason as Error).message });
      return new Promise((resolve) => {
        const onAbort = () => settle({ action: 'cancel', reason: (signal.reason as Error).message });
        const timer = setTimeout(() => settle({ action: 'deny', reason: timedOut(timeoutMs) }), timeoutMs);
        const settle = (answer: PermissionAnswer) => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          waiting.delete(id);
          resolve(answer);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        waiting.set(id, { name, settle });
      });
    },
    answer(response) {
      // an id holding a secret was shown to the client as redacted_<hash>: that is the id it answers
      const shown = response.id.startsWith(REDACTED_ID_PREFIX) ? [...waiting.keys()].find((id) => hashedId(id) === response.id) : undefined;
      const request = waiting.get(shown ?? response.id);
      if (!request) return notice(`permission_response "${response.id}" answers no permission_request waiting for an answer; it was ignored.`);
      const answer = answerOf(response, request.name);
      if (response.decision === 'allow_always') remembered.set(request.name, answer);
      request.settle(answer);
    },
    close(reason) {
      closed ??= reason;
      for (const request of [...waiting.values()]) request.settle({ action: 'deny', reason: closed });
    },
  };
}
