import { visible } from '../output/visible.js';
import { createSerializer, jsonLine, type OutputFormat, type ProgressWriter } from '../output/serializer.js';
import { palette } from '../output/style.js';
import type { OutputEvent } from '../protocol/types.js';
import { isStoredPrompt } from './prompts.js';

/** What a log tool prints, event by event: an output event, or a session file's stored prompt (an input event). */
export type LoggedEvent = OutputEvent | StoredPrompt;
type StoredPrompt = { type: 'prompt' | 'message'; content?: unknown; [key: string]: unknown };

const isPrompt = (event: LoggedEvent | Record<string, unknown>): event is StoredPrompt => isStoredPrompt(event);

const quoted = (text: string) => `> ${visible(text).replace(/\n/g, '\n> ')}\n\n`;

/** What the model said or did: a user turn with none of these was interrupted before the model said anything. */
export const MODEL_WORK = new Set<string>(['reasoning', 'text', 'usage', 'tool_call', 'tool_result', 'final']);

/** How a user turn that did not end in success ended, in words (zero replay, zero sessions show, zero render). */
export function turnEndWords(status: string, worked: boolean): string {
  if (status === 'incomplete') return 'stopped at the turn limit (--max-turns)';
  return worked ? 'interrupted by the client' : 'interrupted by the client before the model said anything';
}

/** A permission_decision's action in words. */
export const decided = (action: string) => (action === 'allow' ? 'allowed' : action === 'deny' ? 'denied' : action === 'cancel' ? 'cancelled' : action);

/**
 * A recorded event as zero exec printed it, for the log tools that print events again (zero replay, zero
 * sessions show): createSerializer's formats, and what a log holds that exec's own output leaves to its client.
 * A stored prompt prints as it is in stream-json, as `{type: "prompt", content}` in json, and as `> prompt`
 * lines in text. In text, a conversation (--multi-turn, docs/protocol.md §12) reads as the conversation it was:
 * each user turn's message as `> message` lines before its answer (the first turn's only once, after the stored
 * prompt that says it already), a turn that ended otherwise than in success as a progress line saying how
 * (`[turn 3] interrupted by the client`), and each permission decided as one too (`[permission] write_file: denied. …`).
 */
export function createLogSerializer(format: OutputFormat, stderr: ProgressWriter): (event: LoggedEvent | Record<string, unknown>) => string {
  const write = createSerializer(format, stderr);
  if (format === 'stream-json') return (event) => write(event as OutputEvent);
  if (format === 'json') return (event) => (isPrompt(event) ? jsonLine({ type: 'prompt', content: event.content }) : write(event as OutputEvent));
  const style = palette(stderr.color === true);
  /** The prompt just stored, which the first turn_start repeats; whether the model worked in this user turn. */
  let prompt: string | undefined;
  let worked = false;
  /** Whether stdout was written to, and how many newlines end it (up to 2: a blank line). */
  let wrote = false;
  let newlines = 0;
  /** A user's message, a paragraph of its own: a blank line before it when something came before. */
  const paragraph = (before: string, text: string) => `${before}${wrote ? '\n'.repeat(Math.max(0, 2 - (before ? 1 : newlines))) : ''}${quoted(text)}`;
  /** The answer's open line ended, as the text format ends it before anything else (a final does only that). */
  const endLine = (runId: string) => write({ type: 'final', runId, text: '' } as OutputEvent);
  const progress = (event: OutputEvent, line: string) => {
    const ended = endLine(event.runId);
    stderr.write(line);
    return ended;
  };
  const shown = (event: LoggedEvent | Record<string, unknown>): string => {
    if (isPrompt(event)) {
      prompt = typeof event.content === 'string' ? event.content.trim() : undefined;
      return paragraph('', String(event.content));
    }
    const output = event as OutputEvent;
    switch (output.type) {
      case 'turn_start': {
        worked = false;
        const repeated = output.turn === 1 && output.content === prompt;
        prompt = undefined;
        return repeated ? '' : paragraph(endLine(output.runId), output.content);
      }
      case 'turn_end':
        if (output.status === 'success') return '';
        return progress(output, `${style.yellow(`[turn ${output.turn}]`)} ${turnEndWords(output.status, worked)}\n`);
      case 'permission_decision':
        return progress(output, `${style.yellow('[permission]')} ${output.name}: ${decided(output.action)}. ${output.decisionReason}\n`);
      default:
        if (MODEL_WORK.has(output.type)) worked = true;
        return write(output);
    }
  };
  return (event) => {
    const text = shown(event);
    if (!text) return text;
    wrote = true;
    const trailing = text.length - text.replace(/\n+$/, '').length;
    newlines = Math.min(2, trailing === text.length ? newlines + trailing : trailing);
    return text;
  };
}
