import type { ImageInput } from './types.js';
import type { Verdict } from './validate.js';

/** The cap on one image, decoded (docs/protocol.md §2), as Zero's `maxStreamImageBytes`. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

const MEDIA_TYPES: Record<string, ImageInput['mediaType']> = {
  png: 'image/png',
  'image/png': 'image/png',
  jpeg: 'image/jpeg',
  jpg: 'image/jpeg',
  'image/jpeg': 'image/jpeg',
  'image/jpg': 'image/jpeg',
  gif: 'image/gif',
  'image/gif': 'image/gif',
  webp: 'image/webp',
  'image/webp': 'image/webp',
};

/**
 * A media type as Zero's `NormalizeImageMediaType` takes it: any case, spaces around it, a `data:…;base64`
 * wrapper, the bare extension (`png`, `jpg`); undefined when it is none of the four image types.
 */
export function normalizeMediaType(value: string): ImageInput['mediaType'] | undefined {
  let type = value.trim().toLowerCase();
  if (type.startsWith('data:')) type = type.slice('data:'.length).split(';', 1)[0]!.trim();
  return Object.hasOwn(MEDIA_TYPES, type) ? MEDIA_TYPES[type] : undefined;
}

/** The size of standard base64 once decoded; undefined when it is not whole 4-character groups. */
function decodedSize(base64: string): number | undefined {
  if (base64.length % 4 !== 0) return undefined;
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return (base64.length / 4) * 3 - padding;
}

type Problem = { ok: false; field: string; problem: string };

/** One image (already shaped by the schema) in the form the providers send: its media type named one way, its base64 on one line. */
function normalizeImage(image: { mediaType: string; data: string }, field: string): ImageInput | Problem {
  const mediaType = normalizeMediaType(image.mediaType);
  if (!mediaType) return { ok: false, field: `${field}.mediaType`, problem: `Unsupported image type ${JSON.stringify(image.mediaType)} (expected png, jpeg, gif or webp)` };
  // GNU base64 wraps its output at 76 columns; Go's decoder skips the line breaks, and so does this
  const data = image.data.replace(/[\r\n]/g, '');
  const size = decodedSize(data);
  if (size === undefined || size === 0) return { ok: false, field: `${field}.data`, problem: 'Not valid base64 (standard alphabet, with padding)' };
  if (size > MAX_IMAGE_BYTES) return { ok: false, field: `${field}.data`, problem: `Must be at most 10 MiB (${MAX_IMAGE_BYTES} bytes) once decoded, received ${size} bytes` };
  return { mediaType, data };
}

type InputObject = { schemaVersion?: unknown; type?: unknown; content?: unknown; images?: unknown };

/**
 * A schema-valid input event as the run takes it: a version 2 message's images normalized (see normalizeImage),
 * `images: []` and `null` dropped, a missing `content` (an image-only message) made `""`. Any other event as it is.
 */
export function acceptImages<T>(event: T): Verdict<T> {
  const message = event as InputObject;
  if (message.schemaVersion !== 2 || message.type !== 'message') return { ok: true, value: event };
  const { images, content, ...rest } = message;
  const given = Array.isArray(images) ? (images as { mediaType: string; data: string }[]) : [];
  const normalized: ImageInput[] = [];
  for (const [index, image] of given.entries()) {
    const accepted = normalizeImage(image, `images[${index}]`);
    if ('ok' in accepted) return accepted;
    normalized.push(accepted);
  }
  return { ok: true, value: { ...rest, content: typeof content === 'string' ? content : '', ...(normalized.length ? { images: normalized } : {}) } as T };
}
