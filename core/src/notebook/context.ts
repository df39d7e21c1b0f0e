import { z } from 'zod';
import type { CallOptions, DchubClient } from '../client.js';
import type { McpToolClient } from '../mcp.js';
import type { InputOf, Resource } from '../resource.js';
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

/**
 * A method's arguments as an endpoint's input, member by member (`from`: the Python name of a member
 * when it differs, as `query` for the service's `q`); the endpoint's schema checks them.
 */
export function inputOf<E extends Resource>(
  _e: E,
  args: Record<string, unknown>,
  members: readonly string[],
  from: Readonly<Record<string, string>> = {},
): InputOf<E> {
  return Object.fromEntries(members.map((m) => [m, args[from[m] ?? m]])) as InputOf<E>;
}
