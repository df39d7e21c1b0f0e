import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { AuthError } from '../src/errors.js';
import { exchangeRefusal } from '../src/mcp-answers.js';

/** JSON-RPC -32001 is the service's "Unauthorized" and also the SDK's own request timeout: only the first refuses. */
describe('exchangeRefusal and -32001', () => {
  it("the service's -32001 refuses the key (an AuthError in its words)", () => {
    const err = new McpError(-32001, 'Unauthorized: the session key was revoked');
    const refused = exchangeRefusal(err, 'MCP tools/call');
    expect(refused).toBeInstanceOf(AuthError);
    expect(refused?.message).toBe('MCP tools/call: Unauthorized: the session key was revoked');
  });

  it("the SDK's request timeout (-32001 with data.timeout) is not a refused key", () => {
    const err = new McpError(ErrorCode.RequestTimeout, 'Request timed out', { timeout: 60_000 });
    expect(err.code).toBe(-32001);
    expect(exchangeRefusal(err, 'MCP tools/call')).toBeUndefined();
  });
});
