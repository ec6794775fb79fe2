import { UsageError } from '../errors.js';
import type { ConversationItem } from '../agent/conversation.js';
import type { Step } from '../streams.js';
import { NO_INPUT, NO_PROMPT } from './combine.js';
import type { ConversationEvent } from './types.js';

/**
 * A conversation's input events (--multi-turn, docs/protocol.md §12) → what the conversation takes: each `message`
 * or `prompt` is a user turn of its own (its content trimmed; one with nothing left and no images is dropped),
 * `interrupt` and `permission_response` are handed on as they come. An input without events, or without a turn,
 * fails at its end as a one-prompt input does.
 */
export function conversationStep(): Step<ConversationEvent, ConversationItem> {
  let events = 0;
  let turns = 0;
  return {
    write(event, emit) {
      events++;
      if (event.type === 'interrupt') return emit({ kind: 'interrupt' });
      if (event.type === 'permission_response') return emit({ kind: 'permission', id: event.id, decision: event.decision, ...(event.reason !== undefined ? { reason: event.reason } : {}) });
      const prompt = event.content.trim();
      const images = 'images' in event ? event.images : undefined;
      if (!prompt && !images?.length) return;
      turns++;
      emit({ kind: 'turn', prompt, ...(images?.length ? { images } : {}) });
    },
    end() {
      if (events === 0) throw new UsageError(NO_INPUT);
      if (turns === 0) throw new UsageError(NO_PROMPT);
    },
  };
}

/**
 * The conversation's input never fails as a stream: a turn may be running, and it must be stopped (its tools
 * killed) before the run ends with the failure. So the failure becomes the last item, and the rest of the input is
 * read and dropped.
 */
export function failureAsItem<In>(step: Step<In, ConversationItem>): Step<In, ConversationItem> {
  let failed = false;
  const guarded = (work: () => void, emit: (item: ConversationItem) => void) => {
    if (failed) return;
    try {
      work();
    } catch (error) {
      failed = true;
      emit({ kind: 'failure', error: error instanceof Error ? error : new Error(String(error)) });
    }
  };
  return {
    write: (item, emit) => guarded(() => step.write(item, emit), emit),
    end: (emit) => guarded(() => step.end?.(emit), emit),
  };
}
