import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../lib/package.js';

/**
 * The bodies of docs/protocol.md's ```jsonl examples whose info string is `info`
 * (`output v2`, `input v1`, …), in document order: runs test/docs/protocol.test.ts
 * has checked against the schemas and the order rules, to use as fixtures.
 */
export function protocolExamples(info: string): string[] {
  const doc = readFileSync(join(packageRoot(), 'docs', 'protocol.md'), 'utf8');
  return Array.from(doc.matchAll(/^```jsonl[ \t]+([^\n]*)\n([\s\S]*?)^```[ \t]*$/gm))
    .filter((match) => match[1]!.trim() === info)
    .map((match) => match[2]!);
}

/** §11.2's complete version 2 run: reasoning, a checkpoint, a refused write with its permission_request. */
export const V2_RUN = protocolExamples('output v2').find((run) => run.includes('"checkpoint"') && run.includes('"block"'))!;
