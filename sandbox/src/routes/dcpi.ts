import { DCPI_CITATION, DCPI_LEADERBOARD_CSV_COLUMNS, DcpiLeaderboard, ErrorBody, ENDPOINTS } from '@dchub/core';
import type { SandboxContext } from '../context.js';
import { resolveMarket } from '../data/market-extras.js';
import { scoringDay } from '../data/markets.js';
import { dcpiLeaderboardRows, dcpiMarketAnswer, dcpiScoresAnswer, leaderboardAsOf } from '../domain/dcpi.js';
import { csvField } from '../http.js';
import { SOURCE, SYNTHETIC_NOTICE } from '../labels.js';
import type { RouteRegistry } from '../registry.js';
import { hexId } from '../rng.js';

const etagOf = (body: unknown) => `"${hexId(20, 'dcpi', JSON.stringify(body))}"`;
const etagMatches = (header: string | undefined, etag: string) =>
  !!header && header.split(',').some((t) => t.trim() === '*' || t.trim().replace(/^W\//, '') === etag);

export function register(r: RouteRegistry, ctx: SandboxContext): void {
  r.add({
    ...ENDPOINTS.dcpiScores,
    summary: 'DCPI scores of every market (sort and filters; numbers masked below the Developer plan)',
    tags: ['DCPI'],
    responses: {
      200: { description: 'Scores' },
      400: { description: 'Bad sort or verdict', schema: ErrorBody },
    },
    handler: (c, { query }) => {
      return c.json(dcpiScoresAnswer(ctx, c.get('tier'), query.sort ?? query.sort_by ?? 'excess', query));
    },
  });

  r.add({
    ...ENDPOINTS.dcpiMarket,
    summary: 'DCPI of one market: verdict, composite, excess power, constraint, time to power, inputs',
    tags: ['DCPI'],
    responses: {
      200: { description: 'Score (ETag; If-None-Match → 304)' },
      304: { description: 'Not modified' },
      404: { description: '`{"error":"market not found","slug":...}`', schema: ErrorBody },
    },
    handler: (c) => {
      const requested = c.req.param('market_slug') ?? '';
      const res = resolveMarket(requested);
      if (!res) return c.json({ error: 'market not found', slug: requested }, 404);
      const narrativeOff = ['0', 'false', 'no'].includes((c.req.query('narrative') ?? '').toLowerCase());
      const body = ctx.presenters.dcpiMarket(dcpiMarketAnswer(ctx, res, narrativeOff), c.get('tier'));
      const etag = etagOf(body);
      c.header('ETag', etag);
      c.header('Cache-Control', 'public, max-age=120, stale-while-revalidate=300');
      if (etagMatches(c.req.header('if-none-match'), etag)) return c.body(null, 304);
      return c.json(body);
    },
  });

  r.add({
    ...ENDPOINTS.dcpiLeaderboard,
    summary: 'Markets ranked by DCPI composite (JSON or CSV)',
    tags: ['DCPI'],
    responses: {
      200: {
        description: 'Leaderboard (CSV with format=csv)',
        schema: DcpiLeaderboard,
        alsoContentTypes: ['text/csv'],
      },
      400: { description: 'Bad verdict, limit or format', schema: ErrorBody },
    },
    handler: (c, { query }) => {
      const format = query.format;
      const day = scoringDay(ctx.clock.nowMs());
      const rows = dcpiLeaderboardRows(ctx, day, query.verdict, query.limit ?? 25);
      c.header('Cache-Control', 'public, max-age=300, must-revalidate');
      if (format === 'csv') {
        const lines = [
          DCPI_LEADERBOARD_CSV_COLUMNS.join(','),
          ...rows.map((row) => DCPI_LEADERBOARD_CSV_COLUMNS.map((k) => csvField(row[k])).join(',')),
        ];
        c.header('Content-Type', 'text/csv; charset=utf-8');
        c.header('Content-Disposition', 'attachment; filename="dcpi-leaderboard.csv"');
        return c.body(lines.join('\r\n') + '\r\n');
      }
      return c.json({
        as_of: leaderboardAsOf(day),
        count: rows.length,
        filter: { verdict: query.verdict ?? null, excludes_low_signal: true },
        leaderboard: rows,
        methodology_url: 'https://dchub.cloud/dcpi#methodology',
        citation: DCPI_CITATION,
        _source: SOURCE,
        note: SYNTHETIC_NOTICE,
      });
    },
  });
}
