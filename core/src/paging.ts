import { attachFetchMeta, type CallOptions, type DchubClient, type FetchMeta } from './client.js';
import { confirmedTier } from './derive/sources.js';
import { ValidationError } from './errors.js';
import { BRIEF_PAGE_DEFAULT, briefPageMax } from './plans.js';

/** Where a read of every page stands: after each page. */
export interface PagesProgress {
  pagesDone: number;
  /** Pages this read will take in all (known once the first answer tells the total). */
  pagesTotal: number;
  /** Rows served so far, those a reader left out (a brief that failed to build) included. */
  rowsDone: number;
  /** Rows in all, as the service counts them (`rowsDone` while it does not say). */
  rowsTotal: number;
}

export interface AllPagesOptions extends CallOptions {
  /** Called after each page. */
  onProgress?: (p: PagesProgress) => void;
}

interface ReadPlan {
  /** A row's identity (a brief's slug): a row already read is never kept twice. */
  keyOf?: (row: never) => string | undefined;
  /**
   * Ask the first page at the size every tier may ask for (50) whatever the tier: for a cached
   * endpoint, so that the first page is the one cached answer every read (and the derive setting's
   * widening) shares; the rest follow at the tier's size.
   */
  firstAtDefault?: boolean;
}

/** One page as the reader needs it: its rows, the total the service reports, the caller's tier if said. */
export interface PageAnswer<T> {
  rows: readonly T[];
  /**
   * Records the service sent on this page, those the reader left out included (a brief that failed
   * to build): the next page starts after them. Default: `rows.length`.
   */
  served?: number;
  total?: number;
  tier?: string;
  /** How the page was obtained (from cache, stale, age), when the client said. */
  meta?: FetchMeta;
}

export interface EveryPage<T> {
  rows: T[];
  pages: number;
  /** The total the service reported last (rows.length when it never did). */
  total: number;
  /** The largest page size used. */
  pageSize: number;
  /** How the pages were obtained, together: from cache only when all were, stale when any was. */
  meta?: FetchMeta;
  /** Rows a later page repeated (already read), left out. */
  repeated: number;
}

/** Most pages one read sends: a runaway total must not spend a day's calls (232 briefs take 1 to 5). */
export const MAX_PAGES_PER_READ = 200;

/** The page size: the largest the tier allows, down to 50 for good once the service refuses a larger one. */
class PageSize {
  #refused = false;
  constructor(public limit: number) {}

  /** After a failed page: whether the service refused the size (400 on `limit`): then it is asked again at 50. */
  shrinks(err: unknown): boolean {
    if (
      !(err instanceof ValidationError) ||
      err.status === undefined ||
      err.param !== 'limit' ||
      this.limit <= BRIEF_PAGE_DEFAULT
    )
      return false;
    this.#refused = true; // the tier is below Pro after all
    this.limit = BRIEF_PAGE_DEFAULT;
    return true;
  }

  /** The size the answer's tier allows, unless a larger one was refused. */
  follow(tier: string | undefined): void {
    if (tier && !this.#refused) this.limit = briefPageMax(tier);
  }
}

/** Keeps each row once by its identity (rows without one always), counting the rows a later page repeated. */
class OnceEach<T> {
  readonly #seen = new Set<string>();
  repeated = 0;
  constructor(readonly keyOf: ((row: T) => string | undefined) | undefined) {}

  keep(rows: readonly T[]): readonly T[] {
    const keyOf = this.keyOf;
    if (!keyOf) return rows;
    return rows.filter((r) => {
      const k = keyOf(r);
      if (k === undefined) return true;
      if (this.#seen.has(k)) {
        this.repeated++;
        return false;
      }
      this.#seen.add(k);
      return true;
    });
  }
}

const repeatedWarning = (repeated: number, stalled: boolean): string =>
  `${repeated} row${repeated > 1 ? 's' : ''} a later page repeated ${repeated > 1 ? 'were' : 'was'} left out${stalled ? '; paging stopped at a page that added nothing new' : ''} (the service answered ${repeated > 1 ? 'them' : 'it'} twice)`;

/**
 * Reads every page of a brief bulk endpoint. The first page is asked at the largest size the
 * caller's confirmed tier allows (50 while the tier is unknown, or with `firstAtDefault`), the rest at
 * the size the answer's tier allows (plans.ts: 500 from Pro). A larger page the service refuses (400 on `limit`) is
 * asked
 * again at 50. Stops when the reported total is reached, at a short or empty page, or at `MAX_PAGES_PER_READ`.
 * `opts.signal` aborts between pages and during a call.
 */
export async function readEveryPage<T>(
  client: DchubClient,
  fetchPage: (page: { limit: number; offset: number }, opts: CallOptions) => Promise<PageAnswer<T>>,
  opts: AllPagesOptions = {},
  plan: ReadPlan = {},
): Promise<EveryPage<T>> {
  const { onProgress, ...callOpts } = opts;
  const known = plan.firstAtDefault ? undefined : await confirmedTier(client);
  const size = new PageSize(known ? briefPageMax(known) : BRIEF_PAGE_DEFAULT);
  let pageSize = 0;
  const rows: T[] = [];
  const metas: FetchMeta[] = [];
  let total: number | undefined;
  let pages = 0;
  // Rows already read, by identity: a page that repeats them (a service ignoring `offset`) adds nothing twice.
  const once = new OnceEach(plan.keyOf as ((row: T) => string | undefined) | undefined);
  let stalled = false;
  /** Records the service has sent so far: where the next page starts (rows kept may be fewer). */
  let offset = 0;
  while (pages < MAX_PAGES_PER_READ) {
    const page = await fetchSized(fetchPage, size, offset, callOpts);
    const asked = size.limit;
    pages++;
    pageSize = Math.max(pageSize, asked);
    if (page.meta) metas.push(page.meta);
    const fresh = once.keep(page.rows);
    rows.push(...fresh);
    // A page of rows already read adds nothing: the service is not moving on; reading more would only spend calls.
    stalled = once.keyOf !== undefined && page.rows.length > 0 && fresh.length === 0;
    const served = Math.max(page.served ?? page.rows.length, page.rows.length);
    offset += served;
    if (page.total !== undefined && Number.isFinite(page.total) && page.total >= 0) total = page.total;
    size.follow(page.tier);
    const done = stalled || served === 0 || (total !== undefined ? offset >= total : served < asked);
    const rowsTotal = Math.max(total ?? offset, offset);
    onProgress?.({
      pagesDone: pages,
      pagesTotal: done ? pages : pages + Math.max(1, Math.ceil((rowsTotal - offset) / size.limit)),
      rowsDone: offset,
      rowsTotal,
    });
    if (done) break;
  }
  const meta = combineMeta(metas);
  if (meta && once.repeated) meta.warnings.push(repeatedWarning(once.repeated, stalled));
  return { rows, pages, total: total ?? rows.length, pageSize, meta, repeated: once.repeated };
}

/** One page at the current size; a size the service refuses is asked again at 50. */
async function fetchSized<T>(
  fetchPage: (page: { limit: number; offset: number }, opts: CallOptions) => Promise<PageAnswer<T>>,
  size: PageSize,
  offset: number,
  callOpts: CallOptions,
): Promise<PageAnswer<T>> {
  for (;;) {
    callOpts.signal?.throwIfAborted();
    try {
      return await fetchPage({ limit: size.limit, offset }, callOpts);
    } catch (err) {
      if (!size.shrinks(err)) throw err;
    }
  }
}

/**
 * The pages' FetchMeta as one: from cache when all were, stale (with the first reason) when any was, the oldest age,
 * every warning.
 */
function combineMeta(metas: FetchMeta[]): FetchMeta | undefined {
  if (!metas.length) return undefined;
  const oldest = metas.reduce((a, b) => (b.fetchedAt < a.fetchedAt ? b : a));
  const stale = metas.find((m) => m.stale);
  return {
    fromCache: metas.every((m) => m.fromCache),
    stale: stale !== undefined,
    preview: metas.some((m) => m.preview),
    fetchedAt: oldest.fetchedAt,
    ageMs: oldest.ageMs,
    ...(stale?.reason ? { reason: stale.reason } : {}),
    ...(metas.some((m) => m.allowance) ? { allowance: metas.find((m) => m.allowance)!.allowance } : {}),
    // What the readers mended or left out, page by page, once each.
    warnings: [...new Set(metas.flatMap((m) => m.warnings ?? []))],
  };
}

/** Marks a merged answer with the pages' combined FetchMeta (when any page carried one). */
export function markPages<T extends object>(value: T, meta: FetchMeta | undefined): T {
  if (meta) attachFetchMeta(value, meta);
  return value;
}
