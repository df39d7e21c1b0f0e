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
  type ErrorKind,
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

/** The dchub CLI's exit codes (documented in the README). */
export const EXIT = { ok: 0, usage: 2, auth: 3, rateLimit: 4, failure: 5 } as const;

/** What each kind of failure means to a host that has one number for it: the dchub CLI's exit code. */
export const ERROR_KINDS: Readonly<Record<ErrorKind, { readonly exit: number }>> = {
  // A bad argument, and a name the service does not know (404): the user's to fix.
  validation: { exit: EXIT.usage },
  not_found: { exit: EXIT.usage },
  auth: { exit: EXIT.auth },
  rate_limit: { exit: EXIT.rateLimit },
  server: { exit: EXIT.failure },
  network: { exit: EXIT.failure },
  schema_drift: { exit: EXIT.failure },
};

/** The exit code of a failure: its kind's, or a failure's (5) for anything that is no DC Hub error. */
export const exitCode = (err: unknown): number =>
  err instanceof DchubError ? (ERROR_KINDS[err.kind]?.exit ?? EXIT.failure) : EXIT.failure;

/** One member of an error's JSON-RPC `data`, under the name the hosts give it. */
export interface ErrorField {
  /** Its name in `data`, and the attribute of the host's class. */
  readonly name: string;
  /** Its JSON type (`json`: any JSON of at most BODY_MAX characters, else null). */
  readonly type: 'string' | 'integer' | 'number' | 'boolean' | 'json' | 'string[]';
  /** Null when the error does not know it. */
  readonly nullable: boolean;
  /** Left out of `data` when there is nothing to say (no explanations, no allowance warning). */
  readonly optional?: true;
}

/** One class of failure, as every host has it (the Python API raises a class of each name). */
export interface ErrorClassRow {
  /** The class's name: `data.type` of the JSON-RPC error, and the host's class of that name. */
  readonly name: string;
  /** The class it extends (null: the root of every DC Hub failure). */
  readonly base: string | null;
  /** Its `kind` (null for the root: any). */
  readonly kind: ErrorKind | null;
  /**
   * Every error of its kind is raised as this class, its own or not (a redirect refused, a formula
   * preview with nothing cached): those carry only the fields of the base.
   */
  readonly everyOfKind?: true;
  /** The members `data` carries for it beyond its base's. */
  readonly fields: readonly ErrorField[];
  /** What it means, one line (`code` in backquotes): the host's docstring. */
  readonly doc: string;
}

const text = (name: string): ErrorField => ({ name, type: 'string', nullable: true });

/**
 * The classes of failure, each after its base: what a host maps one-to-one onto its own classes
 * (`rpcError` writes them, the Python API's error classes are generated from them). Plain data:
 * `JSON.stringify(ERROR_CLASSES)` is the whole table.
 */
export const ERROR_CLASSES = [
  {
    name: 'DchubError',
    base: null,
    kind: null,
    fields: [
      { name: 'kind', type: 'string', nullable: false },
      { name: 'status', type: 'integer', nullable: true },
      { name: 'body', type: 'json', nullable: true },
      { name: 'explanations', type: 'string[]', nullable: false, optional: true },
      { name: 'warnings', type: 'json', nullable: false, optional: true },
    ],
    doc: 'Base of every DC Hub failure: `kind`, HTTP `status` (if one came), `body`.',
  },
  {
    name: 'ValidationError',
    base: 'DchubError',
    kind: 'validation',
    fields: [{ name: 'param', type: 'string', nullable: false }],
    doc: 'A bad argument (checked before any call is spent), or a 400 from the service.',
  },
  {
    name: 'AuthError',
    base: 'DchubError',
    kind: 'auth',
    fields: [text('auth_instructions'), text('required_plan'), text('current_plan'), text('upgrade_url')],
    doc: '401 (missing or unknown key), 402 (paid preview) or 403 (plan required).',
  },
  {
    name: 'GatedPreviewError',
    base: 'AuthError',
    kind: 'auth',
    fields: [
      { name: 'preview', type: 'json', nullable: true },
      { name: 'hidden_count', type: 'integer', nullable: true },
      text('unlock_url'),
    ],
    doc: 'A 402 paid preview instead of the data: what was shown, how much is hidden, how to unlock.',
  },
  {
    name: 'NotFoundError',
    base: 'DchubError',
    kind: 'not_found',
    fields: [],
    doc: '404: the service has no such resource (a market, a brief, a path).',
  },
  {
    name: 'RateLimitError',
    base: 'DchubError',
    kind: 'rate_limit',
    fields: [
      { name: 'retry_after_seconds', type: 'number', nullable: true },
      text('reset_at'),
      { name: 'daily', type: 'boolean', nullable: false },
    ],
    doc: '429: `retry_after_seconds` (Retry-After or the body), `reset_at` if the service said.',
  },
  {
    name: 'QuotaSpentError',
    base: 'RateLimitError',
    kind: 'rate_limit',
    fields: [{ name: 'limit', type: 'integer', nullable: false }],
    doc: "Today's allowance is spent (confirmed by the service): no request was sent.",
  },
  {
    name: 'ServerError',
    base: 'DchubError',
    kind: 'server',
    fields: [],
    doc: "5xx after the retries (GETs), or at once (POSTs); the service's words when it gave any.",
  },
  {
    name: 'NetworkError',
    base: 'DchubError',
    kind: 'network',
    everyOfKind: true,
    fields: [{ name: 'timeout', type: 'boolean', nullable: false }],
    doc: 'The service could not be reached, or the connection dropped; `timeout` says which.',
  },
  {
    name: 'SchemaDriftError',
    base: 'DchubError',
    kind: 'schema_drift',
    fields: [{ name: 'path', type: 'string', nullable: false }],
    doc: 'The answer cannot serve the call at all; `path` says where it went wrong.',
  },
] as const satisfies readonly ErrorClassRow[];

export type ErrorClassName = (typeof ERROR_CLASSES)[number]['name'];

/** `data.type` of a call the host cancelled (no DC Hub failure: nothing failed). */
export const CANCELLED = { type: 'Cancelled', kind: 'cancelled' } as const;

/** Core's class of each row, and how each field is read from it. */
const CLASSES: Record<ErrorClassName, abstract new (...args: never[]) => DchubError> = {
  DchubError,
  ValidationError,
  AuthError,
  GatedPreviewError,
  NotFoundError,
  RateLimitError,
  QuotaSpentError,
  ServerError,
  NetworkError,
  SchemaDriftError,
};

/** Core's member for each field whose host name differs from it (the rest share one name). */
const MEMBER: Record<string, string> = {
  retry_after_seconds: 'retryAfterSeconds',
  reset_at: 'resetAt',
  auth_instructions: 'authInstructions',
  required_plan: 'requiredPlan',
  current_plan: 'currentPlan',
  upgrade_url: 'upgradeUrl',
  hidden_count: 'hiddenCount',
  unlock_url: 'unlockUrl',
};

/** The classes a failure belongs to, root first (a QuotaSpentError: DchubError, RateLimitError, QuotaSpentError). */
const classesOf = (err: DchubError): ErrorClassRow[] => ERROR_CLASSES.filter((row) => err instanceof CLASSES[row.name]);

/** The class a host raises for a failure: its most specific, or the one every error of its kind is raised as. */
export function errorClassOf(err: DchubError): string {
  const own = classesOf(err).at(-1)!;
  const byKind = (ERROR_CLASSES as readonly ErrorClassRow[]).find((row) => row.everyOfKind && row.kind === err.kind);
  return own.base === null && byKind ? byKind.name : own.name;
}

/** Most characters of a service body carried in an error (the message says what matters). */
const BODY_MAX = 20_000;

const bounded = (body: unknown): unknown => {
  if (body === undefined) return null;
  const text = JSON.stringify(body);
  return text === undefined || text.length > BODY_MAX ? null : body;
};

/** A field's value as `data` carries it. */
function fieldValue(err: DchubError, field: ErrorField): unknown {
  if (field.name === 'explanations') return err.explanations.length ? [...err.explanations] : undefined;
  if (field.name === 'warnings')
    return err.allowance ? [{ category: 'allowance', message: `DC Hub: ${err.allowance}` }] : undefined;
  const v = (err as unknown as Record<string, unknown>)[MEMBER[field.name] ?? field.name];
  return field.type === 'json' ? bounded(v) : (v ?? null);
}

/**
 * A failure as the JSON-RPC error a host maps one-to-one onto its own classes: `data.type` names
 * the class, the rest are its fields under the host's names (`param`, `retry_after_seconds`,
 * `explanations`, ...), as ERROR_CLASSES lists them.
 */
export function rpcError(err: unknown): { code: number; message: string; data?: Record<string, unknown> } {
  if (!(err instanceof DchubError)) {
    const code = (err as { rpcCode?: unknown } | null)?.rpcCode;
    if (typeof code === 'number') return { code, message: err instanceof Error ? err.message : String(err) };
    const aborted = err instanceof DOMException && err.name === 'AbortError';
    if (aborted) return { code: RPC.dchub, message: 'the call was cancelled', data: { ...CANCELLED } };
    return { code: RPC.internal, message: `internal error: ${err instanceof Error ? err.message : String(err)}` };
  }
  const data: Record<string, unknown> = { type: errorClassOf(err) };
  for (const row of classesOf(err))
    for (const field of row.fields) {
      const v = fieldValue(err, field);
      // What the service explained beyond the message (a hint, valid names), a line each: hosts add them to theirs.
      if (v !== undefined || !field.optional) data[field.name] = v;
    }
  return { code: RPC.dchub, message: err.message, data };
}
