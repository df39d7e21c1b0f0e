import { readFileSync } from 'node:fs';
import { checkApiKey, DEFAULT_BASE_URL, DERIVE_MODES, normalizeBaseUrl } from '@dchub/core';
import { z } from 'zod';

/**
 * The gateway's whole configuration, from the environment, checked at start: a bad value stops the
 * start with one line naming the variable (never repeating a key). Defaults suit one machine; the
 * docs' compose file shows a team's.
 */

const port = z.coerce.number().int().min(0).max(65535);
const fraction = z.coerce
  .number()
  .gt(0, 'must be above 0')
  .max(0.5, 'must be at most 0.5: several replicas without Redis must never spend the whole allowance');
const redisUrl = z
  .string()
  .trim()
  .refine((s) => /^rediss?:\/\//.test(s) && URL.canParse(s), 'must be a redis:// or rediss:// URL');
const httpUrl = z
  .string()
  .trim()
  .refine((s) => {
    try {
      normalizeBaseUrl(s);
      return true;
    } catch {
      return false;
    }
  }, 'must be an http(s) URL without credentials')
  .transform((s) => normalizeBaseUrl(s));
const origins = z
  .string()
  .trim()
  .transform((s) =>
    s
      .split(',')
      .map((o) => o.trim().replace(/\/+$/, ''))
      .filter(Boolean),
  )
  .refine(
    (list) => list.every((o) => o === '*' || /^https?:\/\/[^/]+$/.test(o)),
    'must be origins (https://host[:port])',
  );
const optionalText = z
  .string()
  .trim()
  .transform((s) => s || undefined)
  .optional();

export const GatewayEnv = z.object({
  DCHUB_GATEWAY_HOST: z.string().trim().min(1).default('127.0.0.1'),
  DCHUB_GATEWAY_PORT: port.default(8790),
  DCHUB_UPSTREAM_URL: httpUrl.default(DEFAULT_BASE_URL),
  /** The plan's tier, when known (its allowance is assumed until the service states it). */
  DCHUB_UPSTREAM_TIER: optionalText,
  REDIS_URL: redisUrl.default('redis://127.0.0.1:6379'),
  /** Cached answers on a separate (LRU) instance; the ledger and claims stay on REDIS_URL (noeviction). */
  REDIS_CACHE_URL: redisUrl.optional(),
  /** Before every Redis key (several gateways may share a server). */
  DCHUB_GATEWAY_NAMESPACE: z.string().trim().default('dchub-gw:'),
  /** A token's daily share when `token add` gives none (upstream requests a day; unset: no share). */
  DCHUB_GATEWAY_DEFAULT_SHARE: z.coerce.number().int().positive().optional(),
  /** Without Redis, each replica spends at most this fraction of the allowance left when it last knew it. */
  DCHUB_GATEWAY_DEGRADED_FRACTION: fraction.default(0.05),
  DCHUB_GATEWAY_DERIVE: z.enum(DERIVE_MODES).optional(),
  /** Browser origins allowed (the Excel add-in's host, JupyterLab's); comma-separated. */
  DCHUB_GATEWAY_CORS_ORIGINS: origins.default(['https://localhost:3000']),
  DCHUB_GATEWAY_BODY_LIMIT: z.coerce.number().int().min(1024).max(50_000_000).default(1_000_000),
  /** Seconds to drain in-flight calls at shutdown before open connections are closed. */
  DCHUB_GATEWAY_DRAIN_SECONDS: z.coerce.number().min(0).max(300).default(10),
  /** Seconds for one upstream call, retries included. */
  DCHUB_UPSTREAM_TIMEOUT: z.coerce.number().positive().max(600).default(30),
  /** A bearer token that opens /metrics to a scraper elsewhere (unset: only this host, through no proxy). */
  DCHUB_GATEWAY_METRICS_TOKEN: z
    .string()
    .trim()
    .min(16, 'must be at least 16 characters (it guards /metrics)')
    .optional(),
  DCHUB_GATEWAY_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** OIDC: bearer JWTs of this issuer and audience stand in for gateway tokens. */
  DCHUB_GATEWAY_OIDC_ISSUER: optionalText,
  DCHUB_GATEWAY_OIDC_AUDIENCE: optionalText,
  DCHUB_GATEWAY_OIDC_JWKS_URL: optionalText,
});

export type GatewayConfig = z.output<typeof GatewayEnv> & {
  /** The organisation's key (never logged, never sent anywhere but DCHUB_UPSTREAM_URL). */
  upstreamKey: string | undefined;
};

/** A configuration that cannot start the gateway: `message` is the one line to print. */
export class ConfigError extends Error {}

/** The organisation's key: DCHUB_UPSTREAM_KEY_FILE's first line, else DCHUB_UPSTREAM_KEY. */
function upstreamKey(env: Record<string, string | undefined>): string | undefined {
  const file = env.DCHUB_UPSTREAM_KEY_FILE?.trim();
  let raw = env.DCHUB_UPSTREAM_KEY;
  let name = 'DCHUB_UPSTREAM_KEY';
  if (file) {
    try {
      raw = readFileSync(file, 'utf8').replace(/\r?\n$/, '');
      name = 'DCHUB_UPSTREAM_KEY_FILE';
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'error';
      throw new ConfigError(`DCHUB_UPSTREAM_KEY_FILE: cannot read ${file} (${code})`);
    }
  }
  try {
    return checkApiKey(raw, name);
  } catch (err) {
    throw new ConfigError(err instanceof Error ? err.message : `${name}: not a usable key`);
  }
}

/** The configuration of `env`, or a ConfigError naming the first variable that is wrong. */
export function loadConfig(env: Record<string, string | undefined> = process.env): GatewayConfig {
  // Empty variables count as unset (compose files often pass `VAR=`).
  const given = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = GatewayEnv.safeParse(given);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue.path[0] ?? 'configuration');
    throw new ConfigError(`${name}: ${issue.message}`);
  }
  const c = parsed.data;
  const oidc = [c.DCHUB_GATEWAY_OIDC_ISSUER, c.DCHUB_GATEWAY_OIDC_AUDIENCE, c.DCHUB_GATEWAY_OIDC_JWKS_URL];
  if (oidc.some(Boolean) && !oidc.every(Boolean))
    throw new ConfigError(
      'DCHUB_GATEWAY_OIDC_ISSUER: OIDC needs DCHUB_GATEWAY_OIDC_ISSUER, _AUDIENCE and _JWKS_URL together',
    );
  return { ...c, upstreamKey: upstreamKey(env) };
}
