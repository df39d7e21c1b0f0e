import {
  AuthError,
  DchubError,
  GatedPreviewError,
  NetworkError,
  NotFoundError,
  QuotaSpentError,
  RateLimitError,
  SchemaDriftError,
  ServerError,
  ValidationError,
} from '../errors.js';

/** JSON-RPC error codes: a DC Hub failure (its class in `data.type`), and the protocol's own. */
export const RPC = {
  dchub: -32000,
  parse: -32700,
  invalidRequest: -32600,
  noMethod: -32601,
  invalidParams: -32602,
  internal: -32603,
} as const;

/** Most characters of a service body carried in an error (the message says what matters). */
const BODY_MAX = 20_000;

const bounded = (body: unknown): unknown => {
  if (body === undefined) return null;
  const text = JSON.stringify(body);
  return text === undefined || text.length > BODY_MAX ? null : body;
};

/** The class a host raises, most specific first (a QuotaSpentError is a RateLimitError too). */
function typeOf(err: DchubError): string {
  if (err instanceof QuotaSpentError) return 'QuotaSpentError';
  if (err instanceof RateLimitError) return 'RateLimitError';
  if (err instanceof GatedPreviewError) return 'GatedPreviewError';
  if (err instanceof AuthError) return 'AuthError';
  if (err instanceof ValidationError) return 'ValidationError';
  if (err instanceof NotFoundError) return 'NotFoundError';
  if (err instanceof SchemaDriftError) return 'SchemaDriftError';
  if (err instanceof ServerError) return 'ServerError';
  if (err instanceof NetworkError || err.kind === 'network') return 'NetworkError';
  return 'DchubError';
}

/**
 * A failure as the JSON-RPC error a host maps one-to-one onto its own classes: `data.type` names
 * the class, the rest are its fields under the host's names (`param`, `retry_after_seconds`,
 * `explanations`, ...).
 */
export function rpcError(err: unknown): { code: number; message: string; data?: Record<string, unknown> } {
  if (!(err instanceof DchubError)) {
    const code = (err as { rpcCode?: unknown } | null)?.rpcCode;
    if (typeof code === 'number') return { code, message: err instanceof Error ? err.message : String(err) };
    const aborted = err instanceof DOMException && err.name === 'AbortError';
    if (aborted)
      return { code: RPC.dchub, message: 'the call was cancelled', data: { type: 'Cancelled', kind: 'cancelled' } };
    return { code: RPC.internal, message: `internal error: ${err instanceof Error ? err.message : String(err)}` };
  }
  const data: Record<string, unknown> = {
    type: typeOf(err),
    kind: err.kind,
    status: err.status ?? null,
    body: bounded(err.body),
  };
  // What the service explained beyond the message (a hint, valid names), a line each: hosts add them to theirs.
  if (err.explanations.length) data.explanations = [...err.explanations];
  if (err.allowance) data.warnings = [{ category: 'allowance', message: `DC Hub: ${err.allowance}` }];
  if (err instanceof ValidationError) data.param = err.param;
  if (err instanceof RateLimitError)
    Object.assign(data, {
      retry_after_seconds: err.retryAfterSeconds ?? null,
      reset_at: err.resetAt ?? null,
      daily: err.daily,
    });
  if (err instanceof QuotaSpentError) data.limit = err.limit;
  if (err instanceof AuthError) {
    Object.assign(data, {
      auth_instructions: err.authInstructions ?? null,
      required_plan: err.requiredPlan ?? null,
      current_plan: err.currentPlan ?? null,
      upgrade_url: err.upgradeUrl ?? null,
    });
  }
  if (err instanceof GatedPreviewError)
    Object.assign(data, {
      preview: bounded(err.preview),
      hidden_count: err.hiddenCount ?? null,
      unlock_url: err.unlockUrl ?? null,
    });
  if (err instanceof NetworkError) data.timeout = err.timeout;
  if (err instanceof SchemaDriftError) data.path = err.path;
  return { code: RPC.dchub, message: err.message, data };
}
