import { createClient } from 'redis';

/**
 * A client that fails fast while Redis is away (no offline queue, a short per-command timeout) so a
 * request never hangs on it, and reconnects in the background with a capped backoff. `connect` is
 * not awaited by the gateway: it serves from the start, degraded until Redis answers.
 */
function createGatewayClient(url: string) {
  return createClient({
    url,
    disableOfflineQueue: true,
    commandOptions: { timeout: 1_000 },
    socket: {
      connectTimeout: 2_000,
      reconnectStrategy: (retries: number) => Math.min(50 * 2 ** Math.min(retries, 6), 2_000),
    },
    // RESP3 push notifications about maintenance are for Redis Cloud; Debian's 7.0 has none.
    maintNotifications: 'disabled',
  });
}

/** A node-redis client as the gateway makes it (node-redis's advice: the type of the client made). */
export type RedisClient = ReturnType<typeof createGatewayClient>;

export function redisClient(url: string, onError: (err: Error) => void): RedisClient {
  const client = createGatewayClient(url);
  client.on('error', onError);
  return client;
}

/** `maxmemory-policy` of the server: an evicting one may drop ledger counters and claims. */
export async function evictionPolicy(client: RedisClient): Promise<string | undefined> {
  try {
    const r = (await client.configGet('maxmemory-policy')) as Record<string, string>;
    return r['maxmemory-policy'];
  } catch {
    return undefined; // CONFIG may be disabled on managed servers
  }
}
