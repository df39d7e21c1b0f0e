import { z } from 'zod';
import type { CallOptions, DchubClient } from '../client.js';
import type { McpToolClient } from '../mcp.js';
import { optionalNumber, type NumberRule } from '../schemas/params.js';
import { parseParams } from '../validate.js';

/** What a notebook method works with: the caller's client, the call's options, progress, the MCP client. */
export interface MethodContext {
  client: DchubClient;
  /** `refresh` and the caller's abort signal, passed to every call. */
  call: CallOptions;
  /** One line of progress for the user (a long chain, every page of the briefs). */
  progress(message: string): void;
  /** The caller's MCP tool client (made on first use). */
  mcp(): Promise<McpToolClient>;
}

/** An optional number argument, checked by core's number rule (`name: must be …` otherwise). */
function numberArg(args: Record<string, unknown>, name: string, rule: NumberRule): number | undefined {
  return parseParams(z.object({ [name]: optionalNumber(rule) }), { [name]: args[name] })[name];
}

export const positiveNumber = (args: Record<string, unknown>, name: string) => numberArg(args, name, { gt: 0 });

export const wholeNumber = (args: Record<string, unknown>, name: string, min: number, max?: number) =>
  numberArg(args, name, { int: true, min, ...(max !== undefined ? { max } : {}) });

/** Text arguments: null and undefined alike mean "not given". */
export const text = (v: unknown): string | undefined => (v === null || v === undefined ? undefined : (v as string));
