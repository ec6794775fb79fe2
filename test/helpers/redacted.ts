/** Comparing two redactions of one text: redactText's own comparison (text.ts), as the tests name it. */

export { showsNoMore as noMoreShown } from '../../lib/redaction/text.js';
