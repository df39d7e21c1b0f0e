import { describe, expect, it } from 'vitest';
import { ENDPOINTS, endpointPath } from '../src/endpoints.js';
import { BRIEFS_ALL_PATH, BRIEFS_CSV_PATH, BRIEFS_DIFF_PATH } from '../src/briefs.js';
import { NEWS_PATHS } from '../src/feeds.js';
import { PARCEL_PATH } from '../src/parcel.js';
import { QUEUE_PATH } from '../src/queue.js';
import { RANK_SITES_PATH } from '../src/ranking.js';
import { SITE_SCORE_PATH } from '../src/sites.js';

describe('endpoint descriptors', () => {
  it('the exported path constants are the descriptors’ paths', () => {
    expect([
      QUEUE_PATH,
      SITE_SCORE_PATH,
      RANK_SITES_PATH,
      PARCEL_PATH,
      BRIEFS_CSV_PATH,
      BRIEFS_ALL_PATH,
      BRIEFS_DIFF_PATH,
    ]).toEqual([
      ENDPOINTS.queue.path,
      ENDPOINTS.siteScore.path,
      ENDPOINTS.rankSites.path,
      ENDPOINTS.analyzeParcel.path,
      ENDPOINTS.briefsCsv.path,
      ENDPOINTS.briefsAll.path,
      ENDPOINTS.briefsDiff.path,
    ]);
    expect(NEWS_PATHS).toEqual(['/api/news', '/api/v1/news', '/api/news/live', '/api/agent/news', '/api/news-feed']);
  });

  it('every path parameter has a schema, and every schema a path parameter', () => {
    for (const [name, e] of Object.entries(ENDPOINTS)) {
      const inPath = [...e.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]).sort();
      const declared = 'params' in e ? Object.keys((e.params as { shape: object }).shape).sort() : [];
      expect(declared, name).toEqual(inPath);
    }
  });

  it('endpointPath fills encoded segments and refuses a missing one or one holding a slash', () => {
    expect(endpointPath(ENDPOINTS.receipt, { run_id: 1001 })).toBe('/api/v1/receipts/1001');
    expect(endpointPath(ENDPOINTS.brief, { slug: encodeURIComponent('new york') })).toBe(
      '/api/v1/market-brief/new%20york',
    );
    expect(() => endpointPath(ENDPOINTS.brief)).toThrow(/needs an encoded slug/);
    expect(() => endpointPath(ENDPOINTS.brief, { slug: '../keys' })).toThrow(/needs an encoded slug/);
  });
});
