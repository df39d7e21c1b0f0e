import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { MCP_SERVER_NAME, VERSION } from '@dchub/core';
import type { Team } from '../team.js';
import { cacheWordOf, refusalAnswer, toolAnswer } from './answers.js';
import { listedTools, upstreamTools, type CacheWord } from './upstream.js';

/**
 * The gateway's MCP server for one HTTP request (stateless: app routes/mcp.ts builds one per POST). Its
 * tools are the upstream's: tools/list from the shared store, tools/call through core's McpToolClient of
 * the team (one cache, one MCP ledger, the caller's share), answered as the service answered.
 */

const INSTRUCTIONS =
  "DC Hub data center intelligence through your team's gateway: the service's tools and answers, with one cache " +
  "and one allowance for the team. A note 'DC Hub team gateway: served from the cache…' says an answer is older " +
  'than usual because the service could not be asked. Data CC-BY-4.0: cite "DC Hub, dchub.cloud".';

export interface RequestServer {
  server: Server;
  /** How each tool answer (and tool list) of this request was obtained, in order. */
  words: CacheWord[];
  /** Whether a tool call of this request went upstream (the share's headers are then read again). */
  spent: () => boolean;
}

/** Tool calls run in the caller's context (routes/mcp.ts serves the request through `serveCall`, which sets it). */
export function requestServer(team: Team): RequestServer {
  const words: CacheWord[] = [];
  let spent = false;
  const server = new Server(
    { name: `${MCP_SERVER_NAME} (team gateway)`, version: VERSION },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const listed = await listedTools(team);
    words.push(listed.cache);
    return { tools: listed.tools };
  });
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const { name } = req.params;
    const args = req.params.arguments ?? {};
    try {
      const result = await upstreamTools(team).callTool(name, args);
      words.push(cacheWordOf(result));
      spent ||= !result.fromCache;
      return toolAnswer(result);
    } catch (err) {
      const refused = refusalAnswer(err, name);
      if (refused.word) words.push(refused.word);
      spent ||= refused.word === 'miss';
      return refused.answer;
    }
  });
  return { server, words, spent: () => spent };
}
