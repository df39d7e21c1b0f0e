/**
 * Typed errors. Every failure a caller can meet is one of these, carrying the server's own
 * words where it gave any. Messages never contain the API key (the transport never puts it in
 * a URL, and server bodies are not echoed with request headers).
 */
export type ErrorKind =
  | 'validation'
  | 'auth'
  | 'not_found'
  | 'rate_limit'
  | 'server'
  | 'network'
  | 'schema_drift';

export class DchubError extends Error {
  readonly kind: ErrorKind;
  readonly status?: number;
  /** Parsed JSON body of the failed response, when there was one. */
  readonly body?: unknown;
  constructor(kind: ErrorKind, message: string, opts: { status?: number; body?: unknown; cause?: unknown } = {}) {
    super(message, opts.cause !== undefined ? { cause: opts.cause } : undefined);
    this.name = new.target.name;
    this.kind = kind;
    this.status = opts.status;
    this.body = opts.body;
  }
}

/** A bad argument, caught locally before any call is spent, or a 400 from the server. */
export class ValidationError extends DchubError {
  readonly param: string;
  constructor(param: string, message: string, opts: { status?: number; body?: unknown } = {}) {
    super('validation', `${param}: ${message}`, opts);
    this.param = param;
  }
}

/** 401 (missing or unknown key), 402 (paid preview) or 403 (plan required). */
export class AuthError extends DchubError {
  readonly authInstructions?: string;
  readonly requiredPlan?: string;
  constructor(message: string, opts: { status: number; body?: unknown; authInstructions?: string; requiredPlan?: string }) {
    super('auth', message, opts);
    this.authInstructions = opts.authInstructions;
    this.requiredPlan = opts.requiredPlan;
  }
}

/**
 * A gated answer instead of the data: the real service's 402 paid preview. Carries what was
 * shown, how much is hidden and how to unlock it. (200 previews with `_gated` are answers, not
 * errors: callers read them with `fetchMeta(data).preview`.)
 */
export class GatedPreviewError extends AuthError {
  readonly preview: unknown;
  readonly hiddenCount?: number;
  readonly unlockUrl?: string;
  constructor(message: string, opts: { status: number; body?: unknown; preview?: unknown; hiddenCount?: number; unlockUrl?: string }) {
    super(message, { status: opts.status, body: opts.body, requiredPlan: undefined, authInstructions: opts.unlockUrl });
    this.preview = opts.preview;
    this.hiddenCount = opts.hiddenCount;
    this.unlockUrl = opts.unlockUrl;
  }
}

export class NotFoundError extends DchubError {
  constructor(message: string, opts: { body?: unknown } = {}) {
    super('not_found', message, { status: 404, ...opts });
  }
}

export class RateLimitError extends DchubError {
  /** Seconds to wait, from `Retry-After` or the body. */
  readonly retryAfterSeconds?: number;
  /** When the daily window resets, if the server said. */
  readonly resetAt?: string;
  constructor(message: string, opts: { status?: number; body?: unknown; retryAfterSeconds?: number; resetAt?: string }) {
    super('rate_limit', message, { status: opts.status ?? 429, body: opts.body });
    this.retryAfterSeconds = opts.retryAfterSeconds;
    this.resetAt = opts.resetAt;
  }
}

/** A cache-only call (formula value preview) found nothing cached: nothing was sent. */
export class NotCachedError extends DchubError {
  constructor(path: string) {
    super('network', `${path}: not fetched yet (no network call during formula preview)`);
  }
}

/** The local quota ledger says today's allowance is spent: no request was sent. */
export class QuotaSpentError extends RateLimitError {
  readonly limit: number;
  constructor(limit: number, resetAt: string) {
    super(`daily allowance of ${limit} calls is spent; it resets at ${resetAt}`, { resetAt });
    this.limit = limit;
  }
}

export class ServerError extends DchubError {
  constructor(message: string, opts: { status: number; body?: unknown }) {
    super('server', message, opts);
  }
}

export class NetworkError extends DchubError {
  readonly timeout: boolean;
  constructor(message: string, opts: { timeout?: boolean; cause?: unknown } = {}) {
    super('network', message, { cause: opts.cause });
    this.timeout = opts.timeout ?? false;
  }
}

/** The answer did not have the shape the schemas expect; `path` says where. */
export class SchemaDriftError extends DchubError {
  readonly path: string;
  constructor(path: string, message: string, opts: { body?: unknown } = {}) {
    super('schema_drift', `response did not match at ${path || '(root)'}: ${message}`, opts);
    this.path = path;
  }
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined);

/** Maps an HTTP status and its (possibly JSON) body to the matching typed error. */
export function errorFromResponse(status: number, body: unknown, headers?: Headers): DchubError {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const serverWords = text(b.message) ?? text(b.error) ?? text(b.human_message) ?? (typeof body === 'string' ? body.slice(0, 200) : undefined);
  const reason = serverWords ?? `HTTP ${status}`;
  if (status === 400 || status === 413 || status === 422) {
    const param = text(b.param) ?? /^([a-z_][a-z0-9_.]*):/i.exec(text(b.error) ?? '')?.[1] ?? 'request';
    const msg = (text(b.error) ?? reason).replace(new RegExp(`^${param}:\\s*`), '');
    return new ValidationError(param, msg, { status, body });
  }
  if (status === 402 && (b.status === 'paid_preview' || b.preview !== undefined || b._gated === true)) {
    const unlock = text(b.upgrade_url) ?? text(b._signup_url) ?? text((b.agent_action as Record<string, unknown> | undefined)?.url);
    return new GatedPreviewError(`${reason}${unlock ? ` (unlock: ${unlock})` : ''}`, {
      status,
      body,
      preview: b.preview_data ?? b.data ?? b.preview,
      hiddenCount: typeof b._hidden_count === 'number' ? b._hidden_count : undefined,
      unlockUrl: unlock,
    });
  }
  if (status === 401 || status === 402 || status === 403) {
    return new AuthError(reason, {
      status,
      body,
      authInstructions: text(b.auth_instructions) ?? text(b.get_key_url) ?? text(b.signup_url),
      requiredPlan: text(b.required_plan) ?? text(b._required_tier),
    });
  }
  if (status === 404) return new NotFoundError(reason, { body });
  if (status === 429) {
    const header = headers?.get('retry-after');
    const fromHeader = header !== null && header !== undefined ? Number(header) : Number.NaN;
    const fromBody = Number(b.retry_after ?? b.retry_after_seconds);
    return new RateLimitError(reason, {
      status,
      body,
      retryAfterSeconds: Number.isFinite(fromHeader) ? fromHeader : Number.isFinite(fromBody) ? fromBody : undefined,
      resetAt: text(b.resets_at),
    });
  }
  return new ServerError(reason, { status, body });
}
