import { MCP_TOOL_NAMES, McpToolClient, cacheKey, knownToolInputSchema } from '@dchub/core';
import type { Team } from '../team.js';

/**
 * The replica's side of the upstream MCP server: one core McpToolClient per team caller (one upstream
 * session per replica: the replica is the client there; core opens it again when the service ends it),
 * and the tool list, kept in the shared store so that the replicas do not each ask for it.
 */

/** How an answer was obtained, in the one word of X-DCHub-Cache. */
export type CacheWord = 'hit' | 'miss' | 'stale';

/** The tool list is asked again after an hour: tools change with the service's releases, not by the minute. */
export const TOOL_LIST_LIFETIME_MS = 3_600_000;
/** How long a replica waits for another that is asking for the list. */
const TOOL_LIST_WAIT_MS = 15_000;

/** One tool as tools/list gives it (the service's entry: name, description, input schema, annotations…). */
export type ListedTool = { name: string; inputSchema: Record<string, unknown> } & Record<string, unknown>;

const clients = new WeakMap<Team, McpToolClient>();

/**
 * The team's MCP client: the organisation's key, its cache in the shared store and its MCP ledger (which
 * reserves the calling token's share first: calls run inside `team.run(caller, …)`).
 */
export function upstreamTools(team: Team): McpToolClient {
  let client = clients.get(team);
  if (!client) {
    client = new McpToolClient(team.client, { apiKey: team.secret, ledger: team.mcpLedger });
    clients.set(team, client);
  }
  return client;
}

/** Closes the replica's upstream session (its shutdown). */
export async function closeUpstreamTools(team: Team): Promise<void> {
  await clients.get(team)?.close();
  clients.delete(team);
}

/**
 * The tools the gateway serves: those core can call (MCP_TOOL_NAMES), as the service lists them. A
 * service listing more (its catalogue grows) would otherwise offer tools the gateway refuses.
 */
function callable(tools: Array<{ name: string }>): ListedTool[] {
  return tools.filter((t) => (MCP_TOOL_NAMES as readonly string[]).includes(t.name)) as ListedTool[];
}

/** Core's own copy of the 29 tools' input schemas: served when the service was never reached for its list. */
function coreToolList(): ListedTool[] {
  return MCP_TOOL_NAMES.map((name) => ({ name, inputSchema: { type: 'object', ...knownToolInputSchema(name) } }));
}

/**
 * The upstream's tool list, from the shared store while it is fresh, else asked once for the whole team
 * (a claim: the other replicas wait and read it). The service unreachable: the last list, whatever its age,
 * else core's own copy. A refused key is the caller's to know (thrown).
 */
export async function listedTools(team: Team): Promise<{ tools: ListedTool[]; cache: CacheWord }> {
  const cache = team.client.cache;
  if (!cache) return { tools: callable(await upstreamTools(team).listTools()), cache: 'miss' };
  const key = cacheKey(team.client.callerId, team.client.baseUrl, 'MCP', 'tools/list');
  const now = () => team.client.now();
  const read = async () => {
    const stored = await cache.load(key);
    try {
      return stored && { stored, tools: JSON.parse(stored.text) as ListedTool[] };
    } catch {
      return undefined;
    }
  };
  const before = await read();
  if (before && before.stored.expiresAt > now()) return { tools: before.tools, cache: 'hit' };
  const claim = cache.store.claim
    ? await cache.store.claim(key, { waitMs: TOOL_LIST_WAIT_MS }).catch(() => undefined)
    : undefined;
  try {
    const landed = claim ? await read() : undefined;
    if (landed && landed.stored.expiresAt > now()) return { tools: landed.tools, cache: 'hit' };
    let tools: ListedTool[];
    try {
      tools = callable(await upstreamTools(team).listTools());
    } catch (err) {
      if ((err as { kind?: unknown }).kind === 'auth') throw err;
      return before ? { tools: before.tools, cache: 'stale' } : { tools: coreToolList(), cache: 'stale' };
    }
    const text = JSON.stringify(tools);
    await cache.save(key, { text, storedAt: now(), expiresAt: now() + TOOL_LIST_LIFETIME_MS }, tools);
    return { tools, cache: 'miss' };
  } finally {
    if (typeof claim === 'function') await claim().catch(() => undefined);
  }
}
