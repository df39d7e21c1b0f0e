/* global CustomFunctions */
import { formula } from './load';

/** The MCP client (the official SDK and its schema validator) loads on the first TOOL call, as its own chunk. */
const loadToolClient = () => import(/* webpackChunkName: "mcp" */ './tool-client');

/**
 * Calls any of the 29 DC Hub MCP tools.
 * @customfunction TOOL
 * @param name Tool name, e.g. "get_market_dcpi_rank".
 * @param [args] Two-column range (name, value) or "k=v;k=v" text.
 * @param invocation Invocation (set by Excel).
 * @returns The tool's answer as a table, or its text.
 */
export function tool(
  name: unknown,
  args: unknown[][],
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return formula(async ({ requiredText, callOptions }) => {
    const toolName = requiredText('name', name);
    const { toolCall } = await loadToolClient();
    return toolCall(toolName, args, callOptions(invocation));
  });
}
