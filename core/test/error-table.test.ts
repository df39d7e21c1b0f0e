import { describe, expect, it } from 'vitest';
import { ERROR_CLASSES, ERROR_KINDS, EXIT, errorClassOf, exitCode, rpcError } from '../src/engine/errors.js';
import * as errors from '../src/errors.js';
import {
  AuthError,
  DchubError,
  GatedPreviewError,
  NetworkError,
  NotCachedError,
  NotFoundError,
  QuotaSpentError,
  RateLimitError,
  RedirectError,
  SchemaDriftError,
  ServerError,
  ValidationError,
} from '../src/errors.js';

/** One failure of each class (and of the classes raised as another), with the CLI's exit code for it. */
const SAMPLES: [DchubError, string, number][] = [
  [new DchubError('validation', 'base URL is not a valid URL'), 'DchubError', EXIT.usage],
  [new DchubError('server', 'odd'), 'DchubError', EXIT.failure],
  [new ValidationError('min_mw', 'must be at least 0', { status: 400 }), 'ValidationError', EXIT.usage],
  [new AuthError('no key', { status: 401, requiredPlan: 'pro' }), 'AuthError', EXIT.auth],
  [new GatedPreviewError('preview', { status: 402, hiddenCount: 7, preview: [1] }), 'GatedPreviewError', EXIT.auth],
  [new NotFoundError('no such market'), 'NotFoundError', EXIT.usage],
  [new RateLimitError('slow down', { retryAfterSeconds: 2 }), 'RateLimitError', EXIT.rateLimit],
  [new QuotaSpentError(100, '2026-01-02T00:00:00Z'), 'QuotaSpentError', EXIT.rateLimit],
  [new ServerError('boom', { status: 503 }), 'ServerError', EXIT.failure],
  [new NetworkError('unreachable', { timeout: true }), 'NetworkError', EXIT.failure],
  [new NotCachedError('/api/v1/x'), 'NetworkError', EXIT.failure],
  [new RedirectError('elsewhere', { status: 302 }), 'NetworkError', EXIT.failure],
  [new DchubError('network', 'not fetched yet'), 'NetworkError', EXIT.failure],
  [new SchemaDriftError('rows.0', 'expected a number'), 'SchemaDriftError', EXIT.failure],
];

/** Core's classes by name. */
const CLASS = errors as unknown as Record<string, abstract new (...a: never[]) => unknown>;

describe('the error table hosts map their classes from', () => {
  it('is plain data, each class after its base, as core declares them', () => {
    expect(JSON.parse(JSON.stringify(ERROR_CLASSES))).toEqual(ERROR_CLASSES);
    ERROR_CLASSES.forEach((row, i) => {
      expect(CLASS[row.name], row.name).toBeTypeOf('function');
      if (row.base === null) return expect(Object.getPrototypeOf(CLASS[row.name])).toBe(Error);
      expect(Object.getPrototypeOf(CLASS[row.name]), row.name).toBe(CLASS[row.base]);
      expect(ERROR_CLASSES.findIndex((r) => r.name === row.base)).toBeLessThan(i);
    });
    for (const row of ERROR_CLASSES) for (const f of row.fields) expect(f.name).toMatch(/^[a-z][a-z_]*$/);
  });

  it('names each failure by its class and carries every field of its classes', () => {
    for (const [err, type] of SAMPLES) {
      const { code, data } = rpcError(err);
      expect(code).toBe(-32000);
      expect(errorClassOf(err), err.message).toBe(type);
      expect(data?.type).toBe(type);
      expect(data?.kind).toBe(err.kind);
      // The fields of the classes it is an instance of: a refused redirect raised as a NetworkError has no `timeout`.
      const own = ERROR_CLASSES.filter((r) => err instanceof CLASS[r.name]);
      const expected = own.flatMap((r) => r.fields.filter((f) => !('optional' in f)).map((f) => f.name));
      expect(Object.keys(data!).sort(), type).toEqual(['type', ...expected].sort());
    }
  });

  it('reads each field from core under the host name', () => {
    const g = rpcError(new GatedPreviewError('p', { status: 402, hiddenCount: 7, preview: [1], unlockUrl: 'u' })).data;
    expect(g).toMatchObject({ hidden_count: 7, preview: [1], unlock_url: 'u', upgrade_url: 'u', status: 402 });
    const q = rpcError(new QuotaSpentError(100, '2026-01-02T00:00:00Z')).data;
    expect(q).toMatchObject({ limit: 100, reset_at: '2026-01-02T00:00:00Z', daily: true, retry_after_seconds: null });
    const said = new ValidationError('x', 'bad');
    said.explanations = ['try y'];
    said.allowance = 'over the assumed allowance';
    expect(rpcError(said).data).toMatchObject({
      explanations: ['try y'],
      warnings: [{ category: 'allowance', message: 'DC Hub: over the assumed allowance' }],
    });
  });

  it('gives the CLI one exit code per kind', () => {
    for (const [err, type, exit] of SAMPLES) expect(exitCode(err), type).toBe(exit);
    expect(exitCode(new Error('bug'))).toBe(EXIT.failure);
    for (const row of ERROR_CLASSES) if (row.kind) expect(ERROR_KINDS[row.kind].exit).toBeGreaterThan(0);
  });
});
