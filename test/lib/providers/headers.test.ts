import t from 'tap';
import { requestHeaders } from '../../../lib/providers/headers.js';

const OPENAI = { header: 'Authorization', scheme: 'Bearer' };
const ANTHROPIC = { header: 'x-api-key', scheme: '' };
const KEY = 'sk-0123456789';

t.test('nothing said: only the custom headers; the SDK authenticates as it always does', async (t) => {
  t.same(requestHeaders({ apiKey: KEY }, OPENAI), {});
  t.same(requestHeaders({ apiKey: KEY, customHeaders: { 'X-Title': 'zero' } }, OPENAI), { 'X-Title': 'zero' });
});

t.test('authHeader alone: the key as it is in that header, and the SDK\'s own auth headers removed', async (t) => {
  t.same(requestHeaders({ apiKey: KEY, authHeader: 'api-key' }, OPENAI), { authorization: null, 'x-api-key': null, 'api-key': KEY });
});

t.test('authScheme raw (or none): the key alone, no Bearer', async (t) => {
  t.same(requestHeaders({ apiKey: KEY, authScheme: 'raw' }, OPENAI), { 'x-api-key': null, Authorization: KEY });
  t.same(requestHeaders({ apiKey: KEY, authHeader: 'Authorization', authScheme: 'NONE' }, OPENAI), { 'x-api-key': null, Authorization: KEY });
});

t.test('a scheme of its own, in a header of its own', async (t) => {
  t.same(requestHeaders({ apiKey: KEY, authHeader: 'X-Auth', authScheme: 'Token' }, OPENAI), { authorization: null, 'x-api-key': null, 'X-Auth': `Token ${KEY}` });
});

t.test("Anthropic's default header when only a scheme is given: x-api-key (as in Zero)", async (t) => {
  t.same(requestHeaders({ apiKey: KEY, authScheme: 'Bearer' }, ANTHROPIC), { authorization: null, 'x-api-key': `Bearer ${KEY}` });
});

t.test('authHeaderValue is the whole value, key or no key', async (t) => {
  t.same(requestHeaders({ authHeader: 'X-Token', authHeaderValue: 'tok-1' }, OPENAI), { authorization: null, 'x-api-key': null, 'X-Token': 'tok-1' });
});

t.test('the auth header wins over a custom header of the same name, in any case; other custom headers stay', async (t) => {
  t.same(requestHeaders({ apiKey: KEY, authHeader: 'api-key', customHeaders: { 'API-KEY': 'custom', 'X-Team': 'core' } }, OPENAI), { 'X-Team': 'core', authorization: null, 'x-api-key': null, 'api-key': KEY });
});

t.test("a custom header named like one of the SDK's auth headers is sent, not removed", async (t) => {
  t.same(requestHeaders({ apiKey: KEY, authHeader: 'api-key', customHeaders: { 'X-Api-Key': 'gateway-id' } }, OPENAI), { 'X-Api-Key': 'gateway-id', authorization: null, 'api-key': KEY });
});

t.test('an auth header and no key: the header is not sent at all (not a placeholder)', async (t) => {
  t.same(requestHeaders({ authHeader: 'api-key' }, OPENAI), { authorization: null, 'x-api-key': null, 'api-key': null });
});
