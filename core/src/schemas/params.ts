import { z } from 'zod';

/**
 * Request-parameter builders shared by the client (argument checks before a call is spent)
 * and the sandbox (query parsing). Each accepts the typed value or its query-string form and
 * reports problems in words a spreadsheet user can act on; the zod issue path names the parameter.
 * The `param` metadata feeds the sandbox's generated OpenAPI document.
 */

export interface ParamMeta {
  type: 'number' | 'integer' | 'boolean' | 'string';
  minimum?: number;
  maximum?: number;
  default?: unknown;
  enum?: readonly (string | number)[];
  description?: string;
}

const show = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v) : String(v));
const isBlank = (v: unknown): boolean =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

interface NumberRule {
  min?: number;
  max?: number;
  /** exclusive lower bound */
  gt?: number;
  int?: boolean;
  description?: string;
}

function numberParam(rule: NumberRule) {
  return z
    .unknown()
    .optional()
    .transform((v, ctx): number | undefined => {
      if (isBlank(v)) return undefined;
      const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v.trim()) : Number.NaN;
      const fail = (message: string) => {
        ctx.addIssue({ code: 'custom', message, input: v });
        return z.NEVER;
      };
      if (!Number.isFinite(n)) return fail(`must be a number, got ${show(v)}`);
      if (rule.int && !Number.isInteger(n)) return fail(`must be a whole number, got ${show(v)}`);
      if (rule.gt !== undefined && !(n > rule.gt)) return fail(`must be greater than ${rule.gt}, got ${n}`);
      if (rule.min !== undefined && n < rule.min) return fail(`must be at least ${rule.min}, got ${n}`);
      if (rule.max !== undefined && n > rule.max) return fail(`must be at most ${rule.max}, got ${n}`);
      return n;
    })
    .meta({
      param: {
        type: rule.int ? 'integer' : 'number',
        minimum: rule.min ?? rule.gt,
        maximum: rule.max,
        description: rule.description,
      } satisfies ParamMeta,
    });
}

export const optionalNumber = (rule: NumberRule = {}) => numberParam(rule);

export const requiredNumber = (rule: NumberRule = {}) =>
  numberParam(rule).refine((n) => n !== undefined, { message: 'is required' }) as unknown as z.ZodType<
    number,
    unknown
  >;

const TRUE = new Set(['1', 'true', 'yes', 'y', 'on']);
const FALSE = new Set(['0', 'false', 'no', 'n', 'off']);

export const booleanParam = (fallback: boolean, description?: string) =>
  z
    .unknown()
    .optional()
    .transform((v, ctx): boolean => {
      if (isBlank(v)) return fallback;
      if (typeof v === 'boolean') return v;
      if (typeof v === 'number' && (v === 0 || v === 1)) return v === 1;
      const s = typeof v === 'string' ? v.trim().toLowerCase() : '';
      if (TRUE.has(s)) return true;
      if (FALSE.has(s)) return false;
      ctx.addIssue({ code: 'custom', message: `must be true or false, got ${show(v)}`, input: v });
      return z.NEVER;
    })
    .meta({ param: { type: 'boolean', default: fallback, description } satisfies ParamMeta });

export const optionalString = (opts: { maxLength?: number; description?: string } = {}) =>
  z
    .unknown()
    .optional()
    .transform((v, ctx): string | undefined => {
      if (isBlank(v)) return undefined;
      if (typeof v !== 'string' && typeof v !== 'number') {
        ctx.addIssue({ code: 'custom', message: `must be text, got ${show(v)}`, input: v });
        return z.NEVER;
      }
      const s = String(v).trim();
      if (opts.maxLength !== undefined && s.length > opts.maxLength) {
        ctx.addIssue({ code: 'custom', message: `must be at most ${opts.maxLength} characters`, input: v });
        return z.NEVER;
      }
      return s;
    })
    .meta({ param: { type: 'string', description: opts.description } satisfies ParamMeta });

/** First issue of a failed parse as `{param, message}`. */
export function describeIssue(error: z.ZodError): { param: string; message: string } {
  const issue = error.issues[0];
  const param = issue?.path.map(String).join('.') || 'request';
  return { param, message: issue?.message ?? 'is invalid' };
}
