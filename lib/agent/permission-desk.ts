import type { PermissionAnswer, PermissionDesk } from './loop.js';

/** A `permission_response` input event, as the conversation hands it on. */
export type PermissionResponse = { id: string; action: 'allow' | 'deny'; remember?: boolean };

export type PermissionCounter = PermissionDesk & {
  /** The client's answer: settles the request of that call, or is a notice when no request of that id waits. */
  answer(response: PermissionResponse): void;
  /** No more answers can come (the input ended, or failed): every request waiting, and every later one, is cancelled with this reason. */
  close(reason: string): void;
};

const answerOf = (action: 'allow' | 'deny', name: string, remember: boolean): PermissionAnswer => {
  const verb = action === 'allow' ? 'allowed' : 'denied';
  if (remember) return { action, reason: `The client ${verb} ${name} for the rest of this run.` };
  return { action, reason: action === 'allow' ? `The client allowed this ${name} call.` : `The client denied permission to run this ${name} call.` };
};

/**
 * Where a run's permission requests wait for the client (--permission-prompt stdio): each by its call's id. An
 * answer with `remember` stands for every later call of that tool in the run. A request is cancelled when its
 * signal aborts (an interrupt, a signal) or the input ends first: then nobody can answer it.
 */
export function createPermissionDesk(notice: (message: string) => void): PermissionCounter {
  const waiting = new Map<string, { name: string; settle: (answer: PermissionAnswer) => void }>();
  const remembered = new Map<string, PermissionAnswer>();
  let closed: string | undefined;
  return {
    remembered: (name) => remembered.get(name),
    ask({ id, name }, signal) {
      if (closed !== undefined) return Promise.resolve({ action: 'cancel', reason: closed });
      if (signal.aborted) return Promise.resolve({ action: 'cancel', reason: (signal.reason as Error).message });
      return new Promise((resolve) => {
        const onAbort = () => settle({ action: 'cancel', reason: (signal.reason as Error).message });
        const settle = (answer: PermissionAnswer) => {
          signal.removeEventListener('abort', onAbort);
          waiting.delete(id);
          resolve(answer);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        waiting.set(id, { name, settle });
      });
    },
    answer({ id, action, remember = false }) {
      const request = waiting.get(id);
      if (!request) return notice(`permission_response "${id}" answers no permission_request waiting for an answer; it was ignored.`);
      const answer = answerOf(action, request.name, remember);
      if (remember) remembered.set(request.name, answer);
      request.settle(answer);
    },
    close(reason) {
      closed ??= reason;
      for (const request of [...waiting.values()]) request.settle({ action: 'cancel', reason: closed });
    },
  };
}
