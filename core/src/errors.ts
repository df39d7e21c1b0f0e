import { explainRefusal } from './explain.js';
import { looksLikeHtml, oneLine, stripUserinfo } from './http/words.js';
import { describeGated, wallSentence, previewSentence, type PreviewInfo } from './preview.js';

/**
 * Typed errors. Every failure a caller can meet is one of these, carrying the server's own
 * words where it gave any, on one line. Messages never contain the API key (the transport never
 * puts it in a URL, and server bodies are not echoed with request headers) nor the userinfo of
 * any URL, and never markup.
 */
export type ErrorKind = 'validation' | 'auth' | 'not_found' | 'rate_limit' | 'server' | 'network' | 'schema_drift';

export class DchubError extends Error {
  readonly kind: ErrorKind;
  readonly status?: number;
  /** Parsed JSON body of the failed response, when there was one. */
  readonly body?: unknown;
  /** The call went out past an assumed daily allowance before it failed (one line saying so). */
  allowance?: string;
  /**
   * What the service's refusal explains beyond the message, one plain line each: a hint, the valid
   * names it suggests, where to get a key (`explainRefusal`). Hosts show them with the message.
   */
  explanations: string[] = [];
  /** The failed answer's headers (a team gateway states the allowance on a refusal too); never shown. */
  headers?: Headers;
  constructor(kind: ErrorKind, message: string, opts: { status?: number; body?: unknown; cause?: unknown } = {}) {
    super(stripUserinfo(message), opts.cause !== undefined ? { cause: opts.cause } : undefined);
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

/** 401 (missing or unknown key), 402 (paid preview), 403 (plan required), an MCP tool's plan wall. */
export class AuthError extends DchubError {
  readonly authInstructions?: string;
  readonly requiredPlan?: string;
  readonly currentPlan?: string;
  /** Where the plan that opens this is sold (checkout, pricing page). */
  readonly upgradeUrl?: string;
  constructor(
    message: string,
    opts: {
      status?: number;
      body?: unknown;
      authInstructions?: string;
      requiredPlan?: string;
      currentPlan?: string;
      upgradeUrl?: string;
    },
  ) {
    super('auth', message, opts);
    this.authInstructions = opts.authInstructions;
    this.requiredPlan = opts.requiredPlan;
    this.currentPlan = opts.currentPlan;
    this.upgradeUrl = opts.upgradeUrl;
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
  /** What the preview withholds and how to open it (formatted by `previewSentence`). */
  readonly previewInfo?: PreviewInfo;
  constructor(
    message: string,
    opts: {
      status: number;
      body?: unknown;
      preview?: unknown;
      hiddenCount?: number;
      unlockUrl?: string;
      previewInfo?: PreviewInfo;
      requiredPlan?: string;
    },
  ) {
    super(message, {
      status: opts.status,
      body: opts.body,
      requiredPlan: opts.requiredPlan,
      authInstructions: opts.unlockUrl,
      upgradeUrl: opts.unlockUrl,
    });
    this.preview = opts.preview;
    this.hiddenCount = opts.hiddenCount;
    this.unlockUrl = opts.unlockUrl;
    this.previewInfo = opts.previewInfo;
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
  /** When the limit resets (the server's `resets_at`, else now + Retry-After). */
  readonly resetAt?: string;
  /** A daily cap or a long wait (not worth retrying now), as opposed to a short burst limit. */
  readonly daily: boolean;
  constructor(
    message: string,
    opts: { status?: number; body?: unknown; retryAfterSeconds?: number; resetAt?: string; daily?: boolean },
  ) {
    super('rate_limit', message, { status: opts.status ?? 429, body: opts.body });
    this.retryAfterSeconds = opts.retryAfterSeconds;
    this.resetAt = opts.resetAt;
    this.daily = opts.daily ?? false;
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
    super(`daily allowance of ${limit} calls is spent; it resets at ${resetAt}`, { resetAt, daily: true });
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

/**
 * A redirect the client will not follow: to another origin while an API key is set (the key is
 * never sent there), one the browser hides, or too many hops. `location` is the target's origin.
 */
export class RedirectError extends DchubError {
  readonly location?: string;
  constructor(message: string, opts: { status?: number; location?: string } = {}) {
    super('network', message, { status: opts.status });
    this.location = opts.location;
  }
}

/** The answer did not have the shape the schemas expect; `path` says where. */
export class SchemaDriftError extends DchubError {
  readonly path: string;
  constructor(path: string, message: string, opts: { body?: unknown } = {}) {
    super('schema_drift', path ? `response did not match at ${path}: ${message}` : message, opts);
    this.path = path;
  }
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined);

/** Gateway statuses (CDN pages) and what they mean, for the one-line message. */
const GATEWAY: Record<number, string> = {
  500: 'internal server error',
  502: 'bad gateway',
  503: 'service unavailable',
  504: 'gateway timeout',
  520: 'unknown error',
  521: 'the service is down',
  522: 'connection timed out',
  523: 'the service is unreachable',
  524: 'the service took too long to answer',
  525: 'TLS handshake failed',
  526: 'invalid TLS certificate',
  530: 'origin error',
};

/** One line for an HTML page instead of data: status, what it was, what to do. Never the markup. */
export function htmlPageMessage(status: number): string {
  const what = GATEWAY[status] ? ` (${GATEWAY[status]})` : '';
  const todo =
    status >= 500
      ? 'the service is down or overloaded; try again in a few minutes'
      : status === 200
        ? 'check the base URL (a proxy, login or captive page may be in the way)'
        : 'check the base URL and your network';
  return `HTTP ${status}${what}: the service's gateway answered an HTML error page; ${todo}`;
}

/** Seconds from a `Retry-After` header: delta-seconds or an HTTP date. */
export function retryAfterSeconds(header: string | null | undefined, now = Date.now()): number | undefined {
  if (header === null || header === undefined || header.trim() === '') return undefined;
  const n = Number(header);
  if (Number.isFinite(n)) return Math.max(0, n);
  const at = Date.parse(header);
  return Number.isFinite(at) ? Math.max(0, Math.round((at - now) / 1000)) : undefined;
}

/** Rate-limit bodies that mean "not again today" (or for long): never worth a retry. */
const DAILY_CODES = new Set(['daily_limit_reached', 'daily_cap_exceeded', 'quota_exceeded']);
/** Waits beyond this many seconds fail at once instead of holding the caller. */
export const MAX_RETRY_WAIT_SECONDS = 5;

/** The lines of an error: its message, then what the service explained beyond it (see `explainRefusal`). */
export function errorLines(err: DchubError): string[] {
  return [err.message, ...err.explanations];
}

/**
 * An error as one line, for a host with room for one message (an Excel cell): the message, then
 * what the service explained, `; `-separated.
 */
export function errorSentence(err: DchubError): string {
  return err.explanations.length
    ? `${err.message.replace(/[.\s]+$/, '')} — ${err.explanations.join('; ')}`
    : err.message;
}

/** Maps an HTTP status and its (possibly JSON) body to the matching typed error, with what the body explains. */
export function errorFromResponse(status: number, body: unknown, headers?: Headers): DchubError {
  const err = typedError(status, body, headers);
  err.explanations = explainRefusal(body, err.message);
  return err;
}

/** Statuses of a request the service refuses as malformed, and of a key or plan it refuses. */
const badRequest = (status: number) => status === 400 || status === 413 || status === 422;
const refusedKey = (status: number) => status === 401 || status === 402 || status === 403;

/** The typed error of a gateway's HTML page (never the markup): by status, in the page's one line. */
function htmlPageError(status: number, headers?: Headers): DchubError {
  const msg = htmlPageMessage(status);
  if (status === 429)
    return new RateLimitError(msg, { status, retryAfterSeconds: retryAfterSeconds(headers?.get('retry-after')) });
  if (refusedKey(status)) return new AuthError(msg, { status });
  if (status === 404) return new NotFoundError(msg);
  if (badRequest(status)) return new ValidationError('request', msg, { status });
  return new ServerError(msg, { status });
}

type Fields = Record<string, unknown>;
const objectOf = (v: unknown): Fields => (v && typeof v === 'object' ? v : {}) as Fields;

/** A refusal as read once for every status: its members, its words on one line, where to upgrade. */
interface Refusal {
  status: number;
  body: unknown;
  /** The body's members (none when it is no object). */
  b: Fields;
  /** The service's words on one line, or `HTTP <status>` when it said none. */
  reason: string;
  /** The service's words on one line, when it said any. */
  serverWords?: string;
  /** Where the plan that opens this is sold, when the body says. */
  upgradeUrl?: string;
}

function readRefusal(status: number, body: unknown): Refusal {
  const b = objectOf(body);
  const human = objectOf(b.for_your_human);
  // A JSON-RPC error (the MCP endpoint's refusals): `{"jsonrpc": "2.0", "error": {"code", "message"}}`.
  const rpc = objectOf(b.error);
  const rawWords =
    text(b.message) ??
    text(b.error) ??
    text(rpc.message) ??
    text(b.human_message) ??
    text(human.message) ??
    (typeof body === 'string' ? body : undefined);
  const serverWords = rawWords !== undefined ? oneLine(rawWords) || undefined : undefined;
  const upgradeUrl = text(b.upgrade_url) ?? text(b.pricing_url) ?? text(human.url) ?? text(b._signup_url);
  return { status, body, b, reason: serverWords ?? `HTTP ${status}`, serverWords, upgradeUrl };
}

/** 400, 413, 422: the parameter the service names (else `request`) and its words without the name. */
function validationError({ status, body, b, reason }: Refusal): ValidationError {
  const param = text(b.param) ?? /^([a-z_][a-z0-9_.]*):/i.exec(text(b.error) ?? '')?.[1] ?? 'request';
  // `error` may be a code (`search_filter_required`): then the message says it in words.
  const err = text(b.error);
  const msg = oneLine(err && /\s/.test(err) ? err : (text(b.message) ?? err ?? reason)).replace(
    new RegExp(`^${param.replace(/\./g, '\\.')}:\\s*`),
    '',
  );
  return new ValidationError(param, msg, { status, body });
}

/** A 402 paid preview: what was shown, how much is hidden, where to unlock it. */
function gatedPreviewError({ status, body, b, reason, upgradeUrl }: Refusal): GatedPreviewError {
  const unlock = upgradeUrl ?? text((b.agent_action as Fields | undefined)?.url);
  const info = describeGated({ ...b, preview: true }, {});
  const words = text(b.human_message) ?? text(b.message) ?? reason;
  return new GatedPreviewError(`${oneLine(words)}${unlock && !words.includes(unlock) ? ` (unlock: ${unlock})` : ''}`, {
    status,
    body,
    preview: b.preview_data ?? b.data ?? b.preview,
    hiddenCount: typeof b._hidden_count === 'number' ? b._hidden_count : undefined,
    unlockUrl: unlock,
    previewInfo: info ? { ...info, upgradeUrl: unlock, message: info.message ?? previewSentence(info) } : undefined,
    requiredPlan: text(b.required_plan) ?? text(b._required_tier),
  });
}

/** 401, 402, 403: a missing or unknown key, or a plan wall (said as one sentence with the plan it takes). */
function authError({ status, body, b, reason, serverWords, upgradeUrl }: Refusal): AuthError {
  const requiredPlan = text(b.required_plan) ?? text(b._required_tier);
  const currentPlan = text(b.current_plan) ?? text(b.current_tier);
  const planWall =
    status !== 401 && (requiredPlan !== undefined || /plan|upgrade|pro_required/i.test(text(b.error) ?? ''));
  return new AuthError(
    planWall ? wallSentence({ message: serverWords, requiredTier: requiredPlan, currentPlan, upgradeUrl }) : reason,
    {
      status,
      body,
      authInstructions: text(b.auth_instructions) ?? text(b.get_key_url) ?? text(b.signup_url),
      requiredPlan,
      currentPlan,
      upgradeUrl,
    },
  );
}

/** 429: how long to wait, and whether it is a daily cap (then the message says when it resets). */
function rateLimitError({ status, body, b, reason }: Refusal, headers?: Headers): RateLimitError {
  const bodyWait = b.retry_after ?? b.retry_after_seconds;
  const wait =
    retryAfterSeconds(headers?.get('retry-after')) ??
    (Number.isFinite(Number(bodyWait)) && bodyWait !== null ? Number(bodyWait) : undefined);
  const code = text(b.error) ?? '';
  const daily =
    DAILY_CODES.has(code) || text(b.resets_at) !== undefined || (wait !== undefined && wait > MAX_RETRY_WAIT_SECONDS);
  const resetAt =
    text(b.resets_at) ??
    (wait !== undefined ? new Date(Date.now() + wait * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z') : undefined);
  return new RateLimitError(
    daily && resetAt && !reason.includes(resetAt) ? `${reason.replace(/[.\s]+$/, '')}; resets at ${resetAt}` : reason,
    { status, body, retryAfterSeconds: wait, resetAt, daily },
  );
}

function typedError(status: number, body: unknown, headers?: Headers): DchubError {
  if (typeof body === 'string' && looksLikeHtml(body, headers?.get('content-type')))
    return htmlPageError(status, headers);
  const r = readRefusal(status, body);
  if (badRequest(status)) return validationError(r);
  if (status === 402 && (r.b.status === 'paid_preview' || r.b.preview !== undefined || r.b._gated === true))
    return gatedPreviewError(r);
  if (refusedKey(status)) return authError(r);
  if (status === 404) return new NotFoundError(r.reason, { body });
  if (status === 429) return rateLimitError(r, headers);
  return new ServerError(r.reason, { status, body });
}
