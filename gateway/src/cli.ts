import { QuotaLedger } from '@dchub/core';
import { Authenticator } from './auth.js';
import { ConfigError, loadConfig, type GatewayConfig } from './config.js';
import { Gateway } from './gateway.js';
import { startGateway } from './server.js';
import { hashToken, TokenError } from './tokens.js';

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
  const g = new Gateway(config);
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

/** Each token's name, today's calls, today's upstream requests and share (never a token). */
async function listTokens(g: Gateway): Promise<string[][]> {
  const rows: string[][] = [];
  const names = (await g.redis.hGetAll(`${g.config.DCHUB_GATEWAY_NAMESPACE}tokens`)) as Record<string, string>;
  for (const entry of await g.tokens.list()) {
    const hash = names[entry.name] ?? hashToken('');
    const calls = Number(await g.redis.get(g.authenticator.counterKey(hash))) || 0;
    const ledger = new QuotaLedger(g.store, Authenticator.shareId(hash), {
      tier: 'share',
      allowance: { share: entry.share ?? 0 },
      confirmed: true,
    });
    const s = await ledger.snapshot();
    rows.push([
      entry.name,
      String(calls),
      String(s.used),
      entry.share ? String(entry.share) : '-',
      entry.share ? String(s.remaining) : '-',
    ]);
  }
  return rows;
}

async function serveCommand(config: GatewayConfig, io: Io): Promise<number> {
  const running = await startGateway(config);
  io.err(`dchub-gateway listening on ${running.url}, asking ${config.DCHUB_UPSTREAM_URL}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => void running.close().then(resolve);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
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
    if (command === 'serve') return await serveCommand(config, io);
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
