import { QuotaLedger } from '@dchub/core';
import { Authenticator } from './auth.js';
import { ConfigError, loadConfig, type GatewayConfig } from './config.js';
import { Gateway } from './gateway.js';
import { createLogger } from './logging.js';
import { startGateway } from './server.js';
import { TokenError } from './tokens.js';

const HELP = `dchub-gateway: a DC Hub-compatible caching gateway for a team (one key, one cache, one allowance)

usage:
  dchub-gateway serve                              answer the DC Hub interface on DCHUB_GATEWAY_HOST:PORT
  dchub-gateway token add NAME [--daily-share N]   print a new token for NAME (only its hash is stored)
  dchub-gateway token revoke NAME                  the next call with NAME's token gets 401
  dchub-gateway token list                         each name with today's calls, upstream requests and share

configuration (environment): DCHUB_UPSTREAM_URL, DCHUB_UPSTREAM_KEY_FILE or DCHUB_UPSTREAM_KEY, REDIS_URL,
DCHUB_GATEWAY_HOST, DCHUB_GATEWAY_PORT and the others in docs/gateway.md.
`;

interface Io {
  out(s: string): void;
  err(s: string): void;
}

/** The registry over a connected Redis, for the token commands (they need Redis: no degraded mode). */
async function withRedis<T>(config: GatewayConfig, fn: (g: Gateway) => Promise<T>): Promise<T> {
  // The token commands print a token as their only line of stdout: the gateway's log stays quiet here.
  const g = new Gateway(config, { log: createLogger('silent') });
  try {
    await Promise.race([
      g.redis.connect(),
      new Promise((_, reject) =>
        setTimeout(
          () => reject(new TokenError(`cannot reach Redis at ${new URL(config.REDIS_URL).host}`)),
          5_000,
        ).unref(),
      ),
    ]);
    return await fn(g);
  } finally {
    await g.close();
  }
}

async function tokenCommand(config: GatewayConfig, args: string[], io: Io): Promise<number> {
  const [sub, name, ...rest] = args;
  if (sub === 'add' && name) {
    const i = rest.indexOf('--daily-share');
    const share = i >= 0 ? Number(rest[i + 1]) : config.DCHUB_GATEWAY_DEFAULT_SHARE;
    if (i >= 0 && rest[i + 1] === undefined) throw new TokenError('--daily-share needs a number');
    const token = await withRedis(config, (g) => g.tokens.add(name, share));
    io.out(`${token}\n`);
    return 0;
  }
  if (sub === 'revoke' && name) {
    const done = await withRedis(config, (g) => g.tokens.revoke(name));
    if (!done) throw new TokenError(`no token named ${name}`);
    io.err(`revoked ${name}: its next call gets 401\n`);
    return 0;
  }
  if (sub === 'list') {
    const rows = await withRedis(config, (g) => listTokens(g));
    io.out(`${['name', 'calls_today', 'upstream_today', 'share', 'share_left'].join('\t')}\n`);
    for (const r of rows) io.out(`${r.join('\t')}\n`);
    return 0;
  }
  throw new TokenError('token takes: add NAME [--daily-share N] | revoke NAME | list');
}

/** Each token's name, today's calls, today's upstream requests and share (never a token): three round trips. */
async function listTokens(g: Gateway): Promise<string[][]> {
  const tokens = await g.tokens.list();
  if (!tokens.length) return [];
  const ns = g.config.DCHUB_GATEWAY_NAMESPACE;
  const ledgers = tokens.map(
    (t) =>
      new QuotaLedger(g.store, Authenticator.shareId(t.hash), {
        tier: 'share',
        allowance: { share: t.share ?? 0 },
        confirmed: true,
      }),
  );
  const keys = tokens.flatMap((t, i) => [g.authenticator.counterKey(t.hash), ns + ledgers[i].storeKey]);
  const values = await g.redis.mGet(keys);
  return tokens.map((t, i) => {
    const calls = Number(values[2 * i]) || 0;
    const s = ledgers[i].snapshotOf(values[2 * i + 1] ?? undefined);
    const share = t.share ? [String(t.share), String(s.remaining)] : ['-', '-'];
    return [t.name, String(calls), String(s.used), ...share];
  });
}

/** Serves until SIGTERM or SIGINT, then stops gracefully (server.ts); a second signal ends it at once. */
async function serveCommand(config: GatewayConfig): Promise<number> {
  const running = await startGateway(config);
  const log = running.gateway.log;
  log.info({ url: running.url, upstream: new URL(config.DCHUB_UPSTREAM_URL).origin }, 'listening');
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      log.info({ signal }, 'signal received');
      void running.close().then(resolve);
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  return 0;
}

export async function runGatewayCli(args: string[], env: Record<string, string | undefined>, io: Io): Promise<number> {
  const [command, ...rest] = args;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    io.out(HELP);
    return command ? 0 : 2;
  }
  try {
    const config = loadConfig(env);
    if (command === 'serve') return await serveCommand(config);
    if (command === 'token') return await tokenCommand(config, rest, io);
    io.err(`dchub-gateway: unknown command ${JSON.stringify(command)}\n${HELP}`);
    return 2;
  } catch (err) {
    if (err instanceof ConfigError || err instanceof TokenError) {
      io.err(`dchub-gateway: ${err.message}\n`);
      return 2;
    }
    io.err(`dchub-gateway: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}
