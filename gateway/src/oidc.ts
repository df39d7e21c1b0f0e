import { createHash } from 'node:crypto';
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import type { GatewayConfig } from './config.js';
import type { GatewayCaller } from './team.js';

/**
 * OIDC bearer tokens standing in for gateway tokens: a JWT signed by a key of the configured JWKS,
 * from the configured issuer, for the configured audience (jose checks the signature, `iss`, `aud`,
 * `exp` and `nbf`; `alg: none` never passes). Its subject becomes a caller: named by
 * `preferred_username`, else `email`, else `sub`; with DCHUB_GATEWAY_DEFAULT_SHARE as its daily
 * share, counted under a ledger id derived from issuer and subject. Nothing about it is stored:
 * the identity provider issues and revokes (a token lives until its `exp`).
 */

/** Signature algorithms accepted (asymmetric only: the gateway holds no shared secret). */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** The verdict on a JWT: its caller (and the id its counters are kept under), or why it is refused or unverifiable. */
export type JwtVerdict = { caller: GatewayCaller; id: string } | { refused: string } | { unavailable: string };

/** What a caller is called in logs and metrics: printable, at most 64 characters. */
function callerName(payload: JWTPayload): string {
  const pick = [payload.preferred_username, payload.email, payload.sub].find(
    (v): v is string => typeof v === 'string' && v.trim() !== '',
  );
  return (pick ?? 'oidc-subject').replace(/[^\x21-\x7e]/g, '_').slice(0, 64);
}

/** Why jose refused a token, in words a caller may read (never the token). */
function refusal(err: unknown): JwtVerdict {
  if (err instanceof errors.JWTExpired) return { refused: 'the identity token has expired: sign in again' };
  if (err instanceof errors.JWTClaimValidationFailed)
    return { refused: `the identity token's ${err.claim} claim is not accepted by this gateway (${err.reason})` };
  if (err instanceof errors.JWKSTimeout || !(err instanceof errors.JOSEError))
    return { unavailable: 'the identity provider cannot be reached to check this token; try again shortly' };
  if (err.code === 'ERR_JOSE_GENERIC' && /JSON Web Key Set/.test(err.message))
    return { unavailable: "the identity provider's key set cannot be read to check this token; try again shortly" };
  return { refused: 'the identity token is not signed by a key of the configured identity provider' };
}

export class OidcVerifier {
  readonly #jwks: ReturnType<typeof createRemoteJWKSet>;

  constructor(
    private readonly issuer: string,
    private readonly audience: string,
    jwksUrl: string,
    private readonly defaultShare?: number,
  ) {
    // One key set per process: its cache (and cooldown between fetches) serves every call.
    this.#jwks = createRemoteJWKSet(new URL(jwksUrl), { timeoutDuration: 3_000 });
  }

  /** A verifier when the configuration names an identity provider, else undefined. */
  static of(config: GatewayConfig): OidcVerifier | undefined {
    const {
      DCHUB_GATEWAY_OIDC_ISSUER: iss,
      DCHUB_GATEWAY_OIDC_AUDIENCE: aud,
      DCHUB_GATEWAY_OIDC_JWKS_URL: url,
    } = config;
    return iss && aud && url ? new OidcVerifier(iss, aud, url, config.DCHUB_GATEWAY_DEFAULT_SHARE) : undefined;
  }

  /** Whether a credential is shaped like a JWT (gateway tokens are not). */
  static isJwt(credential: string): boolean {
    return JWT_SHAPE.test(credential);
  }

  async verify(token: string): Promise<JwtVerdict> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.#jwks, {
        issuer: this.issuer,
        audience: this.audience,
        algorithms: ALGORITHMS,
        clockTolerance: 30,
        requiredClaims: ['sub', 'exp'],
      }));
    } catch (err) {
      return refusal(err);
    }
    const id = createHash('sha256')
      .update(`${this.issuer}\n${String(payload.sub)}`)
      .digest('hex');
    const caller: GatewayCaller = {
      name: callerName(payload),
      shareId: `gw-share:oidc:${id.slice(0, 24)}`,
      ...(this.defaultShare ? { share: this.defaultShare } : {}),
    };
    return { caller, id };
  }
}
