/**
 * AWS secret access keys: 40 base64 characters, recognisable only by the AWS
 * key name written shortly before them — `aws_secret_access_key = …`,
 * `AWS_SECRET_ACCESS_KEY=…`, `"SecretAccessKey": "…"`, the `aws configure`
 * prompt `AWS Secret Access Key [None]: …`. (Access key ids, `AKIA…`, identify
 * themselves: see patterns.ts.)
 */

import { isRedacted } from './literals.js';
import { prefixedSecretRule, type TextRule } from './rule.js';

/**
 * The name (any case and separators), a gap of at most 32 characters on the
 * same line, then exactly 40 key characters standing alone. The gap is lazy
 * and bounded, so the regex runs in linear time.
 */
const NAME_THEN_KEY =
  /((?:aws[ _.-]?)?secret[ _.-]?access[ _.-]?key[^\r\n]{0,32}?(?<![A-Za-z0-9/+]))([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi;

/** `secret[ _.-]?access` spelled out: `secret` alone wakes the rule in every text that says it (prose, code, configs). */
const KEYWORDS = ['secretaccess', 'secret access', 'secret_access', 'secret.access', 'secret-access'];

/**
 * A gap that already holds the marker is declined: after a first pass
 * redacted the key, a second must not reach past it to the next 40-character
 * run (idempotence).
 */
export const AWS_SECRET_RULE: TextRule = prefixedSecretRule('aws-secret-access-key', KEYWORDS, NAME_THEN_KEY, (_key, prefix) =>
  isRedacted(prefix),
);
