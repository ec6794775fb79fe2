import { data, event } from './sse-server.js';

// SSE frames as the real APIs send them, for the fake servers of provider tests.

export type WireToolCall = { id: string; name: string; args: string };

/**
 * The field an OpenAI-compatible server streams reasoning in: `reasoning_content`
 * (vLLM, DeepSeek: `content` null beside it) or `reasoning` (Ollama, OpenRouter: `content` empty beside it).
 */
export type ReasoningField = 'reasoning_content' | 'reasoning';

/**
 * An OpenAI Chat Completions stream: reasoning deltas, text deltas, tool calls whose
 * arguments arrive in pieces, a usage chunk, [DONE].
 */
export function openaiStream(options: {
  model?: string;
  reasoning?: string[];
  reasoningField?: ReasoningField;
  text?: string[];
  toolCalls?: WireToolCall[];
  usage?: [number, number];
}): string[] {
  const model = options.model ?? 'gpt-4.1-2025-04-14';
  const chunk = (delta: object, finish: string | null = null) =>
    data({ id: 'chatcmpl-Bx1', object: 'chat.completion.chunk', created: 1764480000, model, system_fingerprint: 'fp_1', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
  const frames = [chunk({ role: 'assistant', content: '', refusal: null })];
  const field = options.reasoningField ?? 'reasoning_content';
  for (const piece of options.reasoning ?? []) frames.push(chunk({ content: field === 'reasoning' ? '' : null, [field]: piece }));
  for (const text of options.text ?? []) frames.push(chunk({ content: text }));
  (options.toolCalls ?? []).forEach((call, index) => {
    frames.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
    const third = Math.ceil(call.args.length / 3);
    for (let at = 0; at < call.args.length; at += third) frames.push(chunk({ tool_calls: [{ index, function: { arguments: call.args.slice(at, at + third) } }] }));
  });
  frames.push(chunk({}, options.toolCalls?.length ? 'tool_calls' : 'stop'));
  if (options.usage) {
    const [prompt_tokens, completion_tokens] = options.usage;
    frames.push(data({ id: 'chatcmpl-Bx1', object: 'chat.completion.chunk', created: 1764480000, model, choices: [], usage: { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens } }));
  }
  frames.push(data('[DONE]'));
  return frames;
}

/** An extended-thinking block: its thinking_delta pieces and the signature_delta before its end, or a redacted_thinking block's data. */
export type WireThinking = { thinking: string[]; signature: string } | { redacted: string };

/**
 * An Anthropic Messages stream: message_start, thinking / redacted_thinking blocks,
 * a text block, tool_use blocks with input_json_delta pieces, message_delta, message_stop.
 */
export function anthropicStream(options: { model?: string; thinking?: WireThinking[]; text?: string[]; toolCalls?: WireToolCall[]; usage?: [number, number] }): string[] {
  const [input_tokens, output_tokens] = options.usage ?? [10, 5];
  const frames = [
    event('message_start', { type: 'message_start', message: { id: 'msg_01', type: 'message', role: 'assistant', model: options.model ?? 'claude-sonnet-4-5-20250929', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens, output_tokens: 1 } } }),
    event('ping', { type: 'ping' }),
  ];
  let index = 0;
  for (const block of options.thinking ?? []) {
    if ('redacted' in block) {
      frames.push(event('content_block_start', { type: 'content_block_start', index, content_block: { type: 'redacted_thinking', data: block.redacted } }));
    } else {
      frames.push(event('content_block_start', { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } }));
      for (const thinking of block.thinking) frames.push(event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking } }));
      frames.push(event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature } }));
    }
    frames.push(event('content_block_stop', { type: 'content_block_stop', index }));
    index++;
  }
  if (options.text?.length) {
    frames.push(event('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }));
    for (const text of options.text) frames.push(event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text } }));
    frames.push(event('content_block_stop', { type: 'content_block_stop', index }));
    index++;
  }
  for (const call of options.toolCalls ?? []) {
    frames.push(event('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } }));
    const third = Math.ceil(call.args.length / 3);
    for (let at = 0; at < call.args.length; at += third) frames.push(event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: call.args.slice(at, at + third) } }));
    frames.push(event('content_block_stop', { type: 'content_block_stop', index }));
    index++;
  }
  frames.push(event('message_delta', { type: 'message_delta', delta: { stop_reason: options.toolCalls?.length ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens } }));
  frames.push(event('message_stop', { type: 'message_stop' }));
  return frames;
}
