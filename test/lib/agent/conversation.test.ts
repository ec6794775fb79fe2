import t from 'tap';
import { createConversation } from '../../../lib/agent/conversation.js';
import type { Event } from '../../../lib/protocol/types.js';
import type { ChatMessage } from '../../../lib/protocol/chat.js';
import { ScriptedProvider, type ScriptTurn } from '../../../lib/providers/scripted.js';
import { createToolbox } from '../../../lib/tools/registry.js';

/** A conversation over the scripted provider; resolves with the events once the input (the items `feed` puts) has been answered. */
async function converse(turns: ScriptTurn[], feed: (conversation: ReturnType<typeof createConversation>, events: Event[]) => Promise<void> | void, options: { maxTurns?: number; history?: ChatMessage[]; seen?: string[][]; spoolAfterChars?: number } = {}) {
  const controller = new AbortController();
  const conversation = createConversation(controller.signal);
  const events: Event[] = [];
  const scripted = new ScriptedProvider(turns);
  // what each model request carried, as the model would read it
  const provider = Object.assign(Object.create(scripted), {
    turn: (request: Parameters<ScriptedProvider['turn']>[0], signal: AbortSignal) => {
      options.seen?.push(request.messages.map((message) => String(message.content)));
      return scripted.turn(request, signal);
    },
  }) as ScriptedProvider;
  const firsts: string[] = [];
  const answers = conversation.run(async (first) => {
    firsts.push(first.prompt);
    const run = { provider, toolbox: createToolbox(), cwd: process.cwd(), maxTurns: options.maxTurns ?? 5, signal: controller.signal, spoolAfterChars: options.spoolAfterChars };
    return { history: options.history ?? [], run };
  });
  const done = (async () => {
    for await (const event of answers) events.push(event);
  })();
  await feed(conversation, events);
  conversation.close();
  await done;
  return { events, firsts };
}

const types = (events: Event[]) => events.map((event) => event.type);

t.test('turns are answered in order with one history; begin is told the first turn only', async (t) => {
  const history: ChatMessage[] = [{ role: 'user', content: 'Earlier question.' }, { role: 'assistant', content: 'Earlier answer.', toolCalls: [] }];
  const { events, firsts } = await converse(
    [{ expect: { contains: ['Earlier answer.', 'one'] }, text: 'First.' }, { expect: { contains: ['Earlier answer.', 'First.', 'two'] }, text: 'Second.' }],
    async (conversation) => {
      await conversation.put({ kind: 'turn', prompt: 'one' });
      await conversation.put({ kind: 'turn', prompt: 'two' });
    },
    { history },
  );
  t.same(firsts, ['one']);
  t.same(types(events), ['turn_start', 'text', 'final', 'turn_end', 'turn_start', 'text', 'final', 'turn_end']);
  t.same(events.filter((event) => event.type === 'turn_end'), [{ type: 'turn_end', turn: 1, status: 'success' }, { type: 'turn_end', turn: 2, status: 'success' }]);
});

t.test('the turn limit ends that turn as incomplete, and the conversation goes on', async (t) => {
  const call = { id: 'c1', name: 'list_directory', args: {} };
  const { events } = await converse([{ toolCalls: [call] }, { expect: { contains: ['tool-turn limit'] }, text: 'Listed it.' }, { text: 'Next turn answered.' }], async (conversation) => {
    await conversation.put({ kind: 'turn', prompt: 'look around' });
    await conversation.put({ kind: 'turn', prompt: 'and now?' });
  }, { maxTurns: 1 });
  t.same(types(events), ['turn_start', 'tool_call', 'tool_result', 'text', 'final', 'turn_end', 'turn_start', 'text', 'final', 'turn_end']);
  t.match(events.find((event) => event.type === 'final'), { text: 'Listed it.' }, 'the answer asked for at the limit');
  t.match(events.filter((event) => event.type === 'turn_end'), [{ status: 'incomplete' }, { status: 'success' }]);
});

t.test('an interrupt before the turns start ends them unasked; a turn after it runs; notices come out with the next event', async (t) => {
  const { events } = await converse([{ expect: { contains: ['later'] }, text: 'Only this one.' }], async (conversation) => {
    await conversation.put({ kind: 'turn', prompt: 'early' });
    await conversation.put({ kind: 'turn', prompt: 'also early' });
    await conversation.put({ kind: 'interrupt' });
    await conversation.put({ kind: 'permission', id: 'nobody', decision: 'allow' });
    await conversation.put({ kind: 'turn', prompt: 'later' });
  });
  t.same(types(events), ['turn_start', 'warning', 'turn_end', 'turn_start', 'turn_end', 'turn_start', 'text', 'final', 'turn_end']);
  t.match(events.filter((event) => event.type === 'turn_end'), [{ turn: 1, status: 'interrupted' }, { turn: 2, status: 'interrupted' }, { turn: 3, status: 'success' }]);
});

t.test('a failure of the input ends the run with it, also between turns', async (t) => {
  const failure = new Error('Invalid stream-json input at line 3: expected a JSON object.');
  await t.rejects(
    converse([{ text: 'First.' }], async (conversation, events) => {
      await conversation.put({ kind: 'turn', prompt: 'one' });
      while (!events.some((event) => event.type === 'turn_end')) await new Promise((resolve) => setImmediate(resolve));
      await conversation.put({ kind: 'failure', error: failure });
    }),
    failure,
  );
});

t.test('a failure in the middle of a turn ends that turn (interrupted) before it ends the run: every turn_start has its turn_end', async (t) => {
  const failure = new Error('Invalid stream-json input at line 2: expected a JSON object.');
  let seen: Event[] = [];
  await t.rejects(
    converse([{ chunks: ['one ', 'two ', 'three ', 'four'], delayMs: 30 }], async (conversation, events) => {
      seen = events;
      await conversation.put({ kind: 'turn', prompt: 'go' });
      while (!events.some((event) => event.type === 'text')) await new Promise((resolve) => setTimeout(resolve, 5));
      await conversation.put({ kind: 'failure', error: failure });
    }),
    failure,
  );
  t.same(types(seen).filter((type) => type !== 'text'), ['turn_start', 'turn_end']);
  t.match(seen.at(-1), { type: 'turn_end', turn: 1, status: 'interrupted' });
});

t.test("a turn interrupted before it ran never reaches the model: the next turn's history has no trace of it", async (t) => {
  const seen: string[][] = [];
  const { events } = await converse([{ text: 'Only this one.' }], async (conversation) => {
    await conversation.put({ kind: 'turn', prompt: 'early' });
    await conversation.put({ kind: 'interrupt' });
    await conversation.put({ kind: 'turn', prompt: 'later' });
  }, { seen });
  t.match(events.filter((event) => event.type === 'turn_end'), [{ turn: 1, status: 'interrupted' }, { turn: 2, status: 'success' }]);
  t.same(seen, [['later']]);
});

t.test('a spooled answer goes whole, read back, in the next turn\'s request', async (t) => {
  const long = 'a long answer 😀 '.repeat(40);
  const seen: string[][] = [];
  const { events } = await converse([{ text: long }, { text: 'Short.' }], async (conversation) => {
    await conversation.put({ kind: 'turn', prompt: 'one' });
    await conversation.put({ kind: 'turn', prompt: 'two' });
  }, { seen, spoolAfterChars: 100 });
  const [first] = events.filter((event) => event.type === 'final') as { text?: string; spool?: { text(): string } }[];
  t.equal(first?.spool?.text(), long, 'the first final carries its spool');
  t.same(seen[1], ['one', long, 'two']);
});
