import t from 'tap';
import { acceptImages, MAX_IMAGE_BYTES, normalizeMediaType } from '../../../lib/protocol/images.js';
import { createLineValidator } from '../../../lib/protocol/schema-version.js';
import { combineRequest } from '../../../lib/protocol/combine.js';
import type { InputEvent } from '../../../lib/protocol/types.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const message = (extra: Record<string, unknown>) => ({ schemaVersion: 2, type: 'message', role: 'user', ...extra });

/** Input lines as `zero exec -i stream-json` validates them, then the request the model receives. */
function request(...values: unknown[]) {
  const validate = createLineValidator<InputEvent>('input', { promptsOnly: true });
  return combineRequest(values.map((value, index) => validate({ value, lineNo: index + 1 })));
}

t.test('media types as Zero\'s NormalizeImageMediaType takes them', async (t) => {
  const cases: [string, string | undefined][] = [
    ['png', 'image/png'],
    ['PNG', 'image/png'],
    ['jpg', 'image/jpeg'],
    ['JPEG', 'image/jpeg'],
    ['image/jpg', 'image/jpeg'],
    ['Image/JPEG', 'image/jpeg'],
    [' image/webp ', 'image/webp'],
    ['gif', 'image/gif'],
    ['data:image/png;base64', 'image/png'],
    ['DATA:image/jpg;base64', 'image/jpeg'],
    ['data:webp', 'image/webp'],
    ['image/bmp', undefined],
    ['', undefined],
    ['toString', undefined],
  ];
  for (const [given, expected] of cases) t.equal(normalizeMediaType(given), expected, JSON.stringify(given));
});

t.test('the request carries each image normalized: one media type name, base64 on one line', async (t) => {
  const wrapped = PNG.replace(/(.{76})/g, '$1\n') + '\n';
  t.ok(wrapped.includes('\n'), 'GNU base64 wraps at 76 columns');
  t.same(request(message({ content: 'Look.', images: [{ mediaType: 'JPG', data: PNG }, { mediaType: 'data:image/png;base64', data: wrapped }] })), {
    prompt: 'Look.',
    images: [
      { mediaType: 'image/jpeg', data: PNG },
      { mediaType: 'image/png', data: PNG },
    ],
  });
  t.same(request(message({ content: 'Look.', images: [{ mediaType: 'png', data: PNG.replace(/(.{20})/g, '$1\r\n') }] })).images, [{ mediaType: 'image/png', data: PNG }], 'CRLF line breaks too');
});

t.test('images: [] and null are no images; an image-only message needs no content', async (t) => {
  t.same(request(message({ content: 'Hi.', images: [] })), { prompt: 'Hi.' });
  t.same(request(message({ content: 'Hi.', images: null })), { prompt: 'Hi.' });
  t.same(request(message({ images: [{ mediaType: 'png', data: PNG }] })), { prompt: '', images: [{ mediaType: 'image/png', data: PNG }] });
  t.throws(() => request(message({ images: [] })), { message: 'Invalid stream-json input at line 1: content: Required field is missing' }, 'no content and no images');
  t.throws(() => request(message({ content: '', images: null })), { message: 'Invalid stream-json input at line 1: content: Must not be empty' });
});

t.test('an unknown media type or broken base64 is a usage error naming the image', async (t) => {
  t.throws(() => request(message({ content: 'x', images: [{ mediaType: 'png', data: PNG }, { mediaType: 'image/bmp', data: PNG }] })), {
    message: 'Invalid stream-json input at line 1: images[1].mediaType: Unsupported image type "image/bmp" (expected png, jpeg, gif or webp)',
    code: 'usage_error',
  });
  t.throws(() => request(message({ content: 'x', images: [{ mediaType: 'png', data: PNG.slice(0, -1) }] })), { message: 'Invalid stream-json input at line 1: images[0].data: Not valid base64 (standard alphabet, with padding)' });
  t.throws(() => request(message({ content: 'x', images: [{ mediaType: 'png', data: 'data:image/png;base64,' + PNG }] })), { message: /^Invalid stream-json input at line 1: images\[0\]\.data: / }, 'the data: prefix belongs in mediaType, as in Zero');
});

t.test('the 10 MiB cap is on the decoded size: exactly 10 MiB passes, one byte more fails', async (t) => {
  t.equal(MAX_IMAGE_BYTES, 10485760);
  const exactly = Buffer.alloc(MAX_IMAGE_BYTES, 7).toString('base64');
  const accepted = request(message({ content: '', images: [{ mediaType: 'png', data: exactly.replace(/(.{76})/g, '$1\n') }] }));
  t.equal(Buffer.from(accepted.images![0]!.data, 'base64').length, MAX_IMAGE_BYTES, 'line-wrapped too: the line breaks are not counted');
  const over = Buffer.alloc(MAX_IMAGE_BYTES + 1, 7).toString('base64');
  t.throws(() => request(message({ content: '', images: [{ mediaType: 'png', data: over }] })), {
    message: 'Invalid stream-json input at line 1: images[0].data: Must be at most 10 MiB (10485760 bytes) once decoded, received 10485761 bytes',
  });
});

t.test('acceptImages leaves every other event as it is', async (t) => {
  const prompt = { schemaVersion: 2, type: 'prompt', content: 'hi' };
  t.same(acceptImages(prompt), { ok: true, value: prompt });
  const v1 = { schemaVersion: 1, type: 'message', role: 'user', content: 'hi' };
  t.same(acceptImages(v1), { ok: true, value: v1 });
});
