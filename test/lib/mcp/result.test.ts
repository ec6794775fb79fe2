import t from 'tap';
import { resultText } from '../../../lib/mcp/result.js';

// What a tool_result's output holds for each kind of MCP content.

t.test('text joined; images, audio, links and blobs said in words; embedded text shown', async (t) => {
  const png = Buffer.alloc(1536).toString('base64');
  const text = resultText({
    content: [
      { type: 'text', text: 'first' },
      { type: 'image', data: png, mimeType: 'image/png' },
      { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
      { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt', mimeType: 'text/plain' },
      { type: 'resource', resource: { uri: 'file:///b.txt', text: 'inside b' } },
      { type: 'resource', resource: { uri: 'file:///c.bin', mimeType: 'application/octet-stream', blob: 'AAAAAA==' } },
    ],
  });
  t.equal(
    text,
    [
      'first',
      '[image: image/png, 1.5 KB, not shown]',
      '[audio: audio/wav, 3 bytes, not shown]',
      '[resource link: a.txt file:///a.txt (text/plain)]',
      '[resource file:///b.txt]\ninside b',
      '[resource file:///c.bin: application/octet-stream, 4 bytes, not shown]',
    ].join('\n'),
  );
});

t.test('structured content alone is its JSON; nothing at all is an empty text', async (t) => {
  t.equal(resultText({ content: [], structuredContent: { sum: 3 } }), '{"sum":3}');
  t.equal(resultText({ content: [] }), '');
});
