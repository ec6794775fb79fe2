import { RE2JS } from 're2js';

/**
 * Compiles with RE2, whose matching time is linear in the line's length: a JavaScript RegExp backtracks,
 * and a pattern such as "(a+)+$" would hold the whole process for minutes on one 41-character line.
 */
export function compilePattern(pattern: string): RE2JS {
  try {
    return RE2JS.compile(fromJavaScriptSyntax(pattern), RE2JS.LOOKBEHINDS);
  } catch (error) {
    throw new Error(
      `Invalid regular expression "${pattern}": ${(error as Error).message}. grep uses RE2 syntax, which is JavaScript's without backreferences (\\1) or lookahead ((?=…), (?!…)).`,
    );
  }
}

/** Rewrites the JavaScript escapes RE2 spells differently: \u00e9 and \u{1F600} become \x{…}. */
function fromJavaScriptSyntax(pattern: string): string {
  return pattern.replace(/\\(?:u([0-9A-Fa-f]{4})|u\{([0-9A-Fa-f]+)\}|.)/gs, (escape, hex4?: string, hexAny?: string) => {
    const hex = hex4 ?? hexAny;
    return hex === undefined ? escape : `\\x{${hex}}`;
  });
}
