import type { ProviderChunk } from './types.js';

type Piece = Extract<ProviderChunk, { type: 'text' | 'reasoning' }>;

const OPEN = '<think>';
const CLOSE = '</think>';
const TAGS = { [OPEN]: /<think>/gi, [CLOSE]: /<\/think>/gi };

/**
 * How many characters at the end of `text` (from `from` on) could be the
 * start of `tag`: they wait for the next delta, which may complete it.
 */
function partialTag(text: string, from: number, tag: string): number {
  for (let length = Math.min(tag.length - 1, text.length - from); length > 0; length--) {
    if (text.slice(text.length - length).toLowerCase() === tag.slice(0, length)) return length;
  }
  return 0;
}

/**
 * The answer of a model that writes its reasoning inline, `<think>…</think>`
 * (Qwen3, DeepSeek-R1 and the like behind a plain OpenAI-compatible server),
 * split into reasoning and text as it streams: the tags in any case, anywhere,
 * even cut across deltas. Only a possible start of a tag is held back (at most
 * 8 characters), so the work and the memory are linear in the answer.
 */
export class ThinkTagSplitter {
  private pending = '';
  private thinking = false;

  push(delta: string): Piece[] {
    const text = this.pending + delta;
    const pieces: Piece[] = [];
    let from = 0;
    for (;;) {
      const tag = this.thinking ? CLOSE : OPEN;
      const pattern = TAGS[tag];
      pattern.lastIndex = from;
      const found = pattern.exec(text);
      if (!found) break;
      this.add(pieces, text.slice(from, found.index));
      from = found.index + tag.length;
      this.thinking = !this.thinking;
    }
    const held = partialTag(text, from, this.thinking ? CLOSE : OPEN);
    this.add(pieces, text.slice(from, text.length - held));
    this.pending = text.slice(text.length - held);
    return pieces;
  }

  /** The end of the answer: what was held back is what it looked like after all (reasoning, if no `</think>` came). */
  flush(): Piece[] {
    const pieces: Piece[] = [];
    this.add(pieces, this.pending);
    this.pending = '';
    return pieces;
  }

  private add(pieces: Piece[], delta: string): void {
    if (delta) pieces.push({ type: this.thinking ? 'reasoning' : 'text', delta });
  }
}

/** Zero's list of model names that may write `<think>` tags (its providers/factory.go): the default of parseThinkTags on an OpenAI-compatible server. */
const THINKING_MODELS = ['deepseek-r1', 'deepseek-reasoner', 'gpt-oss', 'glm-z1', 'kimi-k2-thinking', 'magistral', 'minimax-m3', 'nemotron', 'qwen3', 'qwq', 'reasoner', 'reasoning', 'thinking'];

export function mayWriteThinkTags(model: string): boolean {
  const name = model.trim().toLowerCase();
  return THINKING_MODELS.some((marker) => name.includes(marker));
}
