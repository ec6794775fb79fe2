import t from 'tap';
import { ThinkTagSplitter, mayWriteThinkTags } from '../../../lib/providers/think-tags.js';

/** Pushes the deltas and flushes; consecutive pieces of a kind joined, as the events would read. */
function split(deltas: string[]): [string, string][] {
  const splitter = new ThinkTagSplitter();
  const pieces = [...deltas.flatMap((delta) => splitter.push(delta)), ...splitter.flush()];
  const joined: [string, string][] = [];
  for (const { type, delta } of pieces) {
    const last = joined.at(-1);
    if (last?.[0] === type) last[1] += delta;
    else joined.push([type, delta]);
  }
  return joined;
}

t.test('<think>…</think> is reasoning, the rest text', async (t) => {
  t.same(split(['<think>Check the tests.</think>The answer.']), [['reasoning', 'Check the tests.'], ['text', 'The answer.']]);
  t.same(split(['No tags here.']), [['text', 'No tags here.']]);
});

t.test('tags cut across deltas at every position', async (t) => {
  const answer = 'Before<think>thinking hard</think>after';
  for (let cut = 1; cut < answer.length; cut++) {
    t.same(split([answer.slice(0, cut), answer.slice(cut)]), [['text', 'Before'], ['reasoning', 'thinking hard'], ['text', 'after']], `cut at ${cut}`);
  }
  t.same(split([...answer]), [['text', 'Before'], ['reasoning', 'thinking hard'], ['text', 'after']], 'one character a delta');
});

t.test('tags in any case; several reasoning blocks', async (t) => {
  t.same(split(['<THINK>a</Think>b<think>c</think>d']), [['reasoning', 'a'], ['text', 'b'], ['reasoning', 'c'], ['text', 'd']]);
});

t.test('what only looks like the start of a tag is text once the next delta says so; a stream that ends inside a tag prefix gives it back', async (t) => {
  t.same(split(['a <thin', 'king> b']), [['text', 'a <thinking> b']]);
  t.same(split(['x < y and <th']), [['text', 'x < y and <th']]);
});

t.test('a reasoning block never closed is reasoning to the end', async (t) => {
  t.same(split(['<think>still going', ' on</']), [['reasoning', 'still going on</']]);
});

t.test('only a possible tag start is held back: a delta of text comes out at once', async (t) => {
  const splitter = new ThinkTagSplitter();
  t.same(splitter.push('Hello <'), [{ type: 'text', delta: 'Hello ' }]);
  t.same(splitter.push('b>'), [{ type: 'text', delta: '<b>' }]);
});

t.test('linear: a long answer of many small deltas takes time in proportion', async (t) => {
  const time = (count: number) => {
    const splitter = new ThinkTagSplitter();
    const started = process.hrtime.bigint();
    for (let index = 0; index < count; index++) splitter.push(index % 50 === 0 ? '<think>x</think><' : 'word ');
    return Number(process.hrtime.bigint() - started);
  };
  time(20_000);
  const small = time(50_000);
  const large = time(400_000);
  t.ok(large < small * 24, `8× the deltas took ${(large / small).toFixed(1)}× the time`);
});

t.test("Zero's default: models named like those that write think tags", async (t) => {
  for (const model of ['qwen3:8b', 'deepseek-r1-distill-llama-70b', 'QwQ-32B', 'gpt-oss-20b', 'kimi-k2-thinking', 'Magistral-Small']) t.ok(mayWriteThinkTags(model), model);
  for (const model of ['llama3.1', 'gpt-4.1', 'qwen2.5-coder', 'deepseek-chat']) t.notOk(mayWriteThinkTags(model), model);
});
