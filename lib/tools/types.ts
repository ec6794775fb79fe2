import type { PermissionBlock, SideEffect } from '../protocol/types.js';

export type ToolContext = {
  /** The working directory; every path a tool touches must resolve inside it. */
  cwd: string;
  signal: AbortSignal;
  /** More directories write tools may change (--add-dir), besides cwd. Absolute. */
  extraRoots?: string[];
};

/** Why a call did not run: its tool needs a permission this run lacks, or the sandbox refused a path (`block`). */
export type Refusal = { reason: string; block?: PermissionBlock };

export type ToolOutcome = {
  status: 'ok' | 'error';
  output: string;
  truncated: boolean;
  /** The files the call changed (see changedFilePaths); absent when none, or when the tool cannot tell (bash). */
  changedFiles?: string[];
  /** Set when the call was refused for want of a permission: a `permission_request` precedes its result. */
  refusal?: Refusal;
};

/** What a tool reports besides its output text: `truncated` when it had to cut it itself, the files it changed. */
export type ToolReport = { output: string; truncated?: boolean; changedFiles?: string[] };

/** The output text, or a report. */
export type ToolRunResult = string | ToolReport;

export interface Tool<Args = Record<string, unknown>, Result extends ToolRunResult = string> {
  name: string;
  /** One line, sent to the model as the tool's description. */
  description: string;
  /** JSON Schema of the arguments object; checked with ajv before run() is called. */
  parameters: Record<string, unknown>;
  sideEffect: SideEffect;
  permission: 'allow' | 'prompt';
  /** The MCP server it comes from (lib/mcp): its effects lie beyond the path sandbox, so --auto low and medium never allow it unasked. */
  server?: string;
  /**
   * Returns the output (the toolbox still caps it at 64 KiB); throws (any Error)
   * for an error result whose output is the error's message.
   */
  run(args: Args, context: ToolContext): Promise<Result>;
  /**
   * For a tool that changes files: the files this call would change, as changedFiles names them, for the
   * `checkpoint` written before it runs. Throws (no checkpoint) when the call cannot run as asked.
   */
  targets?(args: Args, context: ToolContext): Promise<string[]>;
}

/** A tool call as the agent hands it to the toolbox: args is whatever the model sent. */
export type ToolInvocation = { id: string; name: string; args: unknown };
