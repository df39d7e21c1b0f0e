import { briefToRow, briefsTable, fetchBriefsAll, fetchBriefsCsv, fetchBriefsDiff } from '../briefs.js';
import type { CallOptions, DchubClient } from '../client.js';
import { toCsv } from '../csv.js';
import { facilitiesTable, searchFacilities } from '../facilities.js';
import { dealsTable, news, newsTable, transactions } from '../feeds.js';
import {
  briefTable,
  briefsAllTable,
  dcpiScore,
  dcpiScoreFields,
  dcpiTable,
  getMarket,
  listMarkets,
  marketBrief,
  marketBriefFields,
  marketsTable,
} from '../markets.js';
import type { PagesProgress } from '../paging.js';
import { queueTable, refineQueue } from '../queue.js';
import { QUEUE_PREDICATES } from '../schemas/queue.js';
import { siteScore, siteScoreTable } from '../sites.js';
import { fieldTable, type Table } from '../table.js';
import { OFF, SWITCH, VALUE, emit, emitFields, num, str, type Command, type CommandContext } from './command.js';
import { UsageError } from './report.js';

/** The commands that read the service's answers and show them as they come. */

/** A queue predicate's flag: its name with dashes (--min-mw for min_mw). */
const flagOf = (predicate: string) => predicate.replace(/_/g, '-');
const QUEUE_SWITCHES: ReadonlySet<string> = new Set(['baseload_only', 'geocoded_only']);

export const queue: Command = {
  usage: `  queue [--iso PJM,MISO] [--min-mw N] [--max-ttp-months N] [--fuel-type T] [--status S]
        [--baseload-only] [--max-fiber-km N] [--geocoded-only] [--limit N]
`,
  flags: Object.fromEntries(QUEUE_PREDICATES.map((k) => [flagOf(k), QUEUE_SWITCHES.has(k) ? SWITCH : VALUE])),
  async run(_args, ctx) {
    const f = ctx.flags;
    const r = await refineQueue(
      ctx.client,
      Object.fromEntries(QUEUE_PREDICATES.map((k) => [k, f[flagOf(k)]])),
      ctx.call,
    );
    emit(ctx, queueTable(r), r);
  },
};

export const score: Command = {
  usage: `  score <lat> <lon> [--capacity-mw N]
`,
  flags: { 'capacity-mw': VALUE },
  async run(args, ctx) {
    if (args.length < 2) throw new UsageError('score needs <lat> <lon>');
    const query = { lat: args[0], lon: args[1], capacity_mw: num('--capacity-mw', ctx.flags['capacity-mw']) };
    const s = await siteScore(ctx.client, query, ctx.call);
    emit(ctx, siteScoreTable(s), s);
  },
};

export const briefs: Command = {
  usage: `  briefs [--csv] [--since ISO] [--limit N] [--offset N]
                                         every market brief of your tier, all pages (as served
                                         with --csv; only those recomputed after --since; one
                                         page with --limit/--offset)
`,
  flags: { csv: OFF, since: VALUE, limit: VALUE, offset: VALUE },
  async run(_args, ctx) {
    const { client, io, flags: f } = ctx;
    // Every page of a bulk read (Enterprise: about 232 briefs); progress on stderr past one page.
    const paged = {
      ...ctx.call,
      onProgress: (p: PagesProgress) => {
        if (p.pagesTotal > 1)
          io.err(`dchub: briefs page ${p.pagesDone} of ${p.pagesTotal} (${p.rowsDone} of ${p.rowsTotal} rows)\n`);
      },
    };
    if (f.since) {
      const d = await fetchBriefsDiff(client, String(f.since), paged);
      const t = briefsTable(d.briefs.map(briefToRow));
      emit(ctx, t, d, f.csv ? toCsv(t) : undefined);
      io.err(`dchub: ${d.changed_total} briefs recomputed since ${f.since}\n`);
    } else if (f.limit || f.offset) {
      const page = { limit: num('--limit', f.limit), offset: num('--offset', f.offset) };
      const all = await fetchBriefsAll(client, page, ctx.call);
      const t = briefsAllTable(all);
      emit(ctx, t, all, f.csv ? toCsv(t) : undefined);
    } else {
      const b = await fetchBriefsCsv(client, paged);
      emit(ctx, briefsTable(b.rows), b.rows, f.csv ? b.text : undefined, b);
    }
  },
};

/** A command about one market's answer: its table, or some of its fields with --field. */
function marketAnswer<T>(
  name: string,
  usage: string,
  read: {
    whole: (client: DchubClient, slug: string, call: CallOptions) => Promise<T>;
    fields: (client: DchubClient, slug: string, fields: string, call: CallOptions) => Promise<unknown>;
    table: (answer: T) => Table;
  },
): Command {
  return {
    usage,
    flags: { field: VALUE },
    async run(args: string[], ctx: CommandContext) {
      if (!args[0]) throw new UsageError(`${name} needs a market slug`);
      const fields = ctx.flags.field;
      if (typeof fields === 'string')
        return emitFields(ctx, await read.fields(ctx.client, args[0], fields, ctx.call), fields);
      const answer = await read.whole(ctx.client, args[0], ctx.call);
      emit(ctx, read.table(answer), answer);
    },
  };
}

export const dcpi = marketAnswer(
  'dcpi',
  `  dcpi <market> [--field F[,G]]          power-readiness scores and verdict of a market (or some fields)
`,
  { whole: dcpiScore, fields: dcpiScoreFields, table: dcpiTable },
);

export const brief = marketAnswer(
  'brief',
  `  brief <market> [--field PATH[,PATH]]   one market brief (or some fields, e.g. hero.verdict)
`,
  { whole: marketBrief, fields: marketBriefFields, table: briefTable },
);

export const markets: Command = {
  usage: `  markets [<market>]                     scored markets, or one market's details
`,
  async run(args, ctx) {
    if (args[0]) {
      const m = await getMarket(ctx.client, args.join(' '), ctx.call);
      emit(ctx, fieldTable(m), m);
    } else {
      const m = await listMarkets(ctx.client, ctx.call);
      emit(ctx, marketsTable(m), m);
    }
  },
};

export const facilities: Command = {
  usage: `  facilities <query> [--country CC] [--limit N]
`,
  flags: { country: VALUE, limit: VALUE },
  async run(args, ctx) {
    const f = ctx.flags;
    const query = { q: args.join(' ') || undefined, country: str(f.country), limit: num('--limit', f.limit) };
    const r = await searchFacilities(ctx.client, query, ctx.call);
    emit(ctx, facilitiesTable(r), r);
  },
};

export const newsCommand: Command = {
  usage: `  news [--limit N]
`,
  flags: { limit: VALUE },
  async run(_args, ctx) {
    const r = await news(ctx.client, { limit: num('--limit', ctx.flags.limit) }, ctx.call);
    emit(ctx, newsTable(r), r);
  },
};

export const deals: Command = {
  usage: `  deals [--limit N] [--deal-type T] [--year Y] [--buyer B] [--seller S]
                                         (a keyed caller of the real service names one of
                                         --year, --buyer, --seller)
`,
  flags: { limit: VALUE, 'deal-type': VALUE, year: VALUE, buyer: VALUE, seller: VALUE },
  async run(_args, ctx) {
    const f = ctx.flags;
    const query = {
      limit: num('--limit', f.limit),
      deal_type: str(f['deal-type']),
      year: num('--year', f.year),
      buyer: str(f.buyer),
      seller: str(f.seller),
    };
    const r = await transactions(ctx.client, query, ctx.call);
    emit(ctx, dealsTable(r), r);
  },
};
