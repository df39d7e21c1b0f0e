import { ENDPOINTS } from '../endpoints.js';
import { call } from '../resource-call.js';
import { FuelMixQuery } from '../schemas/energy.js';
import { parseParams } from '../validate.js';
import { shapedAnswer, type NotebookAnswer } from './answer.js';
import { inputOf, text, type MethodContext } from './context.js';

/** Errors name the Python API's arguments: the service's `q` is the caller's `query`. */
const renamed = async <T>(p: Promise<T>, names: Record<string, string>): Promise<T> =>
  p.catch((err: unknown) => {
    const param = (err as { param?: unknown }).param;
    if (typeof param === 'string' && names[param] && err instanceof Error) {
      Object.defineProperty(err, 'param', { value: names[param] });
      err.message = err.message.replace(new RegExp(`^${param}:`), `${names[param]}:`);
    }
    throw err;
  });

type Args = Record<string, unknown>;

export async function facilities(args: Args, ctx: MethodContext): Promise<NotebookAnswer> {
  const e = ENDPOINTS.facilities;
  const q = inputOf(e, args, ['q', 'country', 'limit', 'market', 'state', 'status'], { q: 'query' });
  const a = await renamed(call(ctx.client, e, q, ctx.call), { q: 'query' });
  return shapedAnswer(a, { extra: { total_matching: a.data.total_matching ?? null } });
}

export async function news(args: Args, ctx: MethodContext): Promise<NotebookAnswer> {
  const q = inputOf(ENDPOINTS.news, args, ['limit', 'query', 'category', 'source']);
  return shapedAnswer(await call(ctx.client, ENDPOINTS.news, q, ctx.call));
}

export async function deals(args: Args, ctx: MethodContext): Promise<NotebookAnswer> {
  const q = inputOf(ENDPOINTS.transactions, args, ['limit', 'deal_type', 'year', 'buyer', 'seller']);
  return shapedAnswer(await call(ctx.client, ENDPOINTS.transactions, q, ctx.call));
}

export async function pipeline(args: Args, ctx: MethodContext): Promise<NotebookAnswer> {
  const q = inputOf(ENDPOINTS.pipeline, args, ['status', 'market', 'company', 'limit']);
  return shapedAnswer(await call(ctx.client, ENDPOINTS.pipeline, q, ctx.call));
}

export async function fuelMix(args: Args, ctx: MethodContext): Promise<NotebookAnswer> {
  const iso = parseParams(FuelMixQuery, { iso: args.iso }).iso ?? 'ERCOT';
  const a = await call(ctx.client, ENDPOINTS.fuelMix, { iso }, ctx.call);
  return shapedAnswer(a, { extra: { iso, total_generation_mw: a.data.total_generation_mw ?? null } });
}

/** Retail prices of a US state (cents per kWh); the 12-month trend as one field per period. */
export async function prices(args: Args, ctx: MethodContext): Promise<NotebookAnswer> {
  const a = await call(ctx.client, ENDPOINTS.energyPrices, { state: text(args.state) ?? '' }, ctx.call);
  return shapedAnswer(a, { extra: { period: (a.data as { period?: string }).period ?? null } });
}

export async function gridRegions(_args: Args, ctx: MethodContext): Promise<NotebookAnswer> {
  const a = await call(ctx.client, ENDPOINTS.gridIntelligence, {}, ctx.call);
  const provenance = a.data.provenance && typeof a.data.provenance === 'object' ? a.data.provenance : null;
  return shapedAnswer(a, { extra: { provenance } });
}

export async function receipts(_args: Args, ctx: MethodContext): Promise<NotebookAnswer> {
  return shapedAnswer(await call(ctx.client, ENDPOINTS.receipts, {}, ctx.call));
}
