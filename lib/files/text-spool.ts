import { createCipheriv, createDecipheriv, randomBytes, type Cipher } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';

/** Past this many characters, a spool's text goes to its file (a turn's text below it stays a string, as without a spool). */
export const SPOOL_AFTER_CHARS = 4 << 20;
/** How much of the file is read back at a time. */
const READ_BYTES = 1 << 20;
const CIPHER = 'aes-256-ctr';

/** Closes the file of a spool nobody holds any more: a spool has no owner to close it (every stage that sees it reads it). */
const unheld = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
});

/**
 * A file nobody else can open or find: created 0600 in a 0700 directory of its own, then unlinked with its directory
 * at once, so no path to it exists, even after a SIGKILL. Undefined when it cannot be made (no room, no /tmp).
 */
function anonymousFile(): number | undefined {
  let dir: string | undefined;
  let fd: number | undefined;
  try {
    dir = mkdtempSync(join(tmpdir(), 'zero-spool-'));
    const path = join(dir, 'text');
    fd = openSync(path, 'wx+', 0o600);
    unlinkSync(path);
    return fd;
  } catch {
    // opened but not unlinked: the file goes with its directory below, and its descriptor is not left open
    if (fd !== undefined) closeSync(fd);
    return undefined;
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Whether a text has a surrogate without its other half: UTF-8 cannot carry it, so a text that has one is not spooled.
 * String.prototype.isWellFormed (ES2024, in every Node zero runs on, >=20; not in this project's ES2022 lib types):
 * native, several times faster than a lookaround regex over every MiB written.
 */
const hasLoneSurrogate = (text: string): boolean => !(text as string & { isWellFormed(): boolean }).isWellFormed();

/** The first half of a surrogate pair (a UTF-16 unit): a text cut after it cuts a character in two. */
const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/** How much of the text a spool is made of goes through the transform at a time: ~6 ms of CPU of the slowest redaction (token-dense text). */
export const PIECE_CHARS = 1 << 15;

type Making = {
  pieces: Generator<string>;
  transform: { push(piece: string): string; flush(): string };
  cutOn: AbortSignal | undefined;
  made: { resolve(whole: boolean): void };
};

/** A promise and its resolve, to be settled later. */
function deferred<T>(): { promise: Promise<T>; resolve(value: T): void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

/** Chunks cut to at most `size` UTF-16 units, never between the halves of a surrogate pair. */
export function* slicesOf(chunks: Iterable<string>, size: number): Generator<string> {
  for (const chunk of chunks) {
    for (let start = 0; start < chunk.length; ) {
      let end = Math.min(chunk.length, start + size);
      if (end < chunk.length && isHighSurrogate(chunk.charCodeAt(end - 1))) end -= 1;
      yield chunk.slice(start, end);
      start = end;
    }
  }
}

/**
 * A text that is written once, in pieces, and read back any number of times: a string while it is short, past
 * `spoolAfter` characters a file (see anonymousFile) encrypted with AES-256-CTR under a key held only in this object,
 * since the text (a model's raw answer) may hold secrets and secrets never reach the disk in the clear. A file that
 * cannot be made or written (a full /tmp), or a text UTF-8 cannot carry (a lone surrogate), leaves the text in
 * memory, as it would be without a spool. Read back, no chunk ends between the halves of a surrogate pair.
 */
export class TextSpool {
  #pieces: string[] = [];
  /** A high surrogate that ended the last piece: it goes with the next one. */
  #carry = '';
  #length = 0;
  #fd: number | undefined;
  #bytes = 0;
  #cipher: Cipher | undefined;
  #spoolable = true;
  readonly #key = randomBytes(32);
  readonly #iv = randomBytes(16);
  /** For a spool made by `through`: where its text comes from, until it is all made. */
  #making: Making | undefined;
  /** For a spool made by `through`: whether it was made whole (false: cut), once it is made. */
  #whole: boolean | undefined;
  /** Counts the moves of the text (into the file, back to memory): a reader then finds its place again. */
  #layout = 0;
  readonly #made = deferred<boolean>();

  constructor(readonly spoolAfter = SPOOL_AFTER_CHARS) {}

  /** Characters (UTF-16 units) written so far. */
  get length(): number {
    return this.#length;
  }

  /** Whether the text is in its file (else it is held as a string). */
  get spooled(): boolean {
    return this.#fd !== undefined;
  }

  write(piece: string): void {
    if (!piece) return;
    this.#length += piece.length;
    let text = this.#carry + piece;
    this.#carry = '';
    if (isHighSurrogate(text.charCodeAt(text.length - 1))) {
      this.#carry = text.slice(-1);
      text = text.slice(0, -1);
    }
    if (!text) return;
    if (this.#fd === undefined) {
      this.#pieces.push(text);
      if (this.#spoolable && this.#length > this.spoolAfter) this.#spill();
      return;
    }
    if (!this.#writeOut(text)) this.#pieces.push(text);
  }

  /**
   * The text in pieces of about a MiB (a piece written, in memory), read back from the file if it is there; of a
   * spool made by `through`, made as far as it is read.
   */
  *chunks(): Generator<string> {
    const next = this.#cursor();
    for (;;) {
      const chunk = next();
      if (chunk !== undefined) yield chunk;
      else if (this.#making) this.#makeMore();
      else break;
    }
    if (this.#carry) yield this.#carry;
  }

  /**
   * A new spool of this text through a streaming transform (the stream redactor), made as it is read: the first
   * reader to get past what is made has the next piece of this text (at most PIECE_CHARS) put through, written to
   * the new spool (its file), and read again from there by any other reader; a reader that stops stops the work.
   * Once `cutOn` aborts, nothing more is made and what the transform still holds is dropped: the text ends there.
   */
  through(transform: { push(piece: string): string; flush(): string }, cutOn?: AbortSignal): TextSpool {
    const out = new TextSpool(this.spoolAfter);
    out.#making = { pieces: slicesOf(this.chunks(), PIECE_CHARS), transform, cutOn, made: this.#made };
    return out;
  }

  /** Settles once a spool made of this one by `through` has been made: true when whole, false when it was cut. */
  throughMade(): Promise<boolean> {
    return this.#made.promise;
  }

  /** Of a spool made by `through`, once it has been made: true when whole, false when it was cut; else undefined. */
  get whole(): boolean | undefined {
    return this.#whole;
  }

  /** The whole text as one string: for what needs it whole (a next request, a schema check). */
  text(): string {
    let text = '';
    for (const chunk of this.chunks()) text += chunk;
    return text;
  }

  /**
   * A reader's place in the text: each call gives the next chunk written past it, or undefined when it has read all
   * that is written so far (more may be written later: a spool being made). Should the text move (into the file, or
   * back to memory), the reader finds its place again in the new one, by the characters it has read.
   */
  #cursor(): () => string | undefined {
    let read = 0;
    let layout = this.#layout;
    let chunks = this.#fromStart(this.#fd);
    let skip = 0;
    return () => {
      if (layout !== this.#layout) [layout, chunks, skip] = [this.#layout, this.#fromStart(this.#fd), read];
      for (;;) {
        let chunk = chunks();
        if (chunk === undefined) return undefined;
        if (skip >= chunk.length) {
          skip -= chunk.length;
          continue;
        }
        if (skip) [chunk, skip] = [chunk.slice(skip), 0];
        read += chunk.length;
        return chunk;
      }
    };
  }

  /** The text from its start as written so far, chunk by chunk, going on as more is written (see #cursor). */
  #fromStart(fd: number | undefined): () => string | undefined {
    if (fd === undefined) {
      let index = 0;
      return () => (index < this.#pieces.length ? this.#pieces[index++] : undefined);
    }
    const decipher = createDecipheriv(CIPHER, this.#key, this.#iv);
    const decoder = new StringDecoder('utf8');
    const buffer = Buffer.allocUnsafe(READ_BYTES);
    let at = 0;
    return () => {
      // a write ends between characters: the decoder holds nothing once it has read up to one
      while (at < this.#bytes) {
        const read = readSync(fd, buffer, 0, Math.min(READ_BYTES, this.#bytes - at), at);
        if (read === 0) throw new Error('The answer spool ended before its text did.');
        at += read;
        const text = decoder.write(decipher.update(buffer.subarray(0, read)));
        if (text) return text;
      }
      return undefined;
    };
  }

  /** The next piece of the text this spool is made of, through its transform; at its end (or cut) the spool is made. */
  #makeMore(): void {
    const making = this.#making!;
    try {
      const next = making.cutOn?.aborted ? undefined : making.pieces.next();
      if (next && !next.done) return this.write(making.transform.push(next.value));
      this.#making = undefined;
      if (next) this.write(making.transform.flush());
      else making.pieces.return(undefined);
      this.#whole = Boolean(next);
      making.made.resolve(this.#whole);
    } catch (error) {
      this.#making = undefined;
      this.#whole = false;
      making.made.resolve(false);
      throw error;
    }
  }

  /** The pieces held so far go to a new file; none is made if it cannot be (the text stays here, and is not tried again). */
  #spill(): void {
    const fd = this.#pieces.some(hasLoneSurrogate) ? undefined : anonymousFile();
    if (fd === undefined) {
      this.#spoolable = false;
      return;
    }
    this.#fd = fd;
    this.#layout += 1;
    this.#cipher = createCipheriv(CIPHER, this.#key, this.#iv);
    unheld.register(this, fd, this);
    const pieces = this.#pieces;
    this.#pieces = [];
    for (const [index, piece] of pieces.entries()) {
      if (this.#writeOut(piece)) continue;
      this.#pieces.push(...pieces.slice(index));
      return;
    }
  }

  /** A piece appended to the file, encrypted; false (and the text back in memory) when it cannot be. */
  #writeOut(piece: string): boolean {
    try {
      if (hasLoneSurrogate(piece)) throw new Error('not UTF-8');
      const bytes = this.#cipher!.update(piece, 'utf8');
      for (let done = 0; done < bytes.length; ) done += writeSync(this.#fd!, bytes, done, bytes.length - done, this.#bytes + done);
      this.#bytes += bytes.length;
      return true;
    } catch {
      this.#backInMemory();
      return false;
    }
  }

  /** A write failed (a full /tmp): what the file holds is read back, the file closed, and the text kept as a string. */
  #backInMemory(): void {
    const fd = this.#fd!;
    const held: string[] = [];
    const next = this.#fromStart(fd);
    for (let chunk = next(); chunk !== undefined; chunk = next()) held.push(chunk);
    unheld.unregister(this);
    closeSync(fd);
    this.#fd = undefined;
    this.#layout += 1;
    this.#cipher = undefined;
    this.#bytes = 0;
    this.#spoolable = false;
    this.#pieces = [...held, ...this.#pieces];
  }
}
