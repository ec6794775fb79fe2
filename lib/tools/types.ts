import type { SideEffect } from '../protocol/types.js';

export type ToolContext = {
  /** The working directory; every path a tool touches must resolve inside it. */
  cwd: string;
  signal: AbortSignal;
  /** More directories write tools may change (--add-dir), besides cwd. Absolute. */
  extraRoots?: string[];
};

export type ToolOutcome = { status: 'ok' | 'error'; output: string; truncated: boolean };

/** The output text, or `{ output, truncated: true }` from a tool that had to cut it itself. */
export type ToolRunResult = string | { output: string; truncated: boolean };

export interface Tool<Args = Record<string, unknown>, Result extends ToolRunResult = string> {
  name: string;
  /** One line, sent to the model as the tool's description. */
  description: string;
  /** JSON Schema of the arguments object; checked with ajv before run() is called. */
  parameters: Record<string, unknown>;
  sideEffect: SideEffect;
  permission: 'allow' | 'prompt';
  /**
   * Returns the output (the toolbox still caps it at 64 KiB); throws (any Error)
   * for an error result whose output is the error's message.
   */
  run(args: Args, context: ToolContext): Promise<Result>;
}

/** What a provider sends to the model for each advertised tool. */
export type ToolDefinition = { name: string; description: string; parameters: Record<string, unknown> };

/** A tool call as the agent hands it to the toolbox: args is whatever the model sent. */
export type ToolInvocation = { id: string; name: string; args: unknown };
