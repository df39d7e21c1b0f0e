/* global CustomFunctions */
import { requiredText } from './args';
import { callOptions, cellResult } from './service';
import { toolCall } from './tool-client';

/**
 * Calls any of the 29 DC Hub MCP tools.
 * @customfunction TOOL
 * @helpurl https://dchub.cloud/docs/excel#tool
 * @param name Tool name, e.g. "get_market_dcpi_rank".
 * @param [args] Two-column range (name, value) or "k=v;k=v" text.
 * @param invocation Invocation (set by Excel).
 * @returns The tool's answer as a table, or its text.
 */
export function tool(name: any, args: any[][], invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return cellResult(() => toolCall(requiredText('name', name), args, callOptions(invocation)));
}
