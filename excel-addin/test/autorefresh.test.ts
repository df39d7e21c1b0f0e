// When a brief table is due for a check: only after a DCPI recompute (06:00 UTC) it may not have seen.
import { describe, expect, it } from 'vitest';
import { EDGE_CACHE_MS, isDue, knownUntil, lastRecompute } from '../src/taskpane/autorefresh';

const t = (iso: string) => Date.parse(iso);
const rec = (over: Record<string, string>) => ({
  table: 'T',
  sheet: 'S',
  asOf: '2026-11-21T06:00:00Z',
  insertedAt: '2026-11-21T12:00:00Z',
  ...over,
});

describe('auto refresh timing', () => {
  it('the last recompute is today 06:00 UTC from 06:00 on, yesterday before', () => {
    expect(lastRecompute(t('2026-11-21T12:00:00Z'))).toBe(t('2026-11-21T06:00:00Z'));
    expect(lastRecompute(t('2026-11-21T06:00:00Z'))).toBe(t('2026-11-21T06:00:00Z'));
    expect(lastRecompute(t('2026-11-21T05:59:59Z'))).toBe(t('2026-11-20T06:00:00Z'));
  });

  it('an inserted table knows what /all knew: its download time less the edge cache', () => {
    expect(knownUntil(rec({}))).toBe(t('2026-11-21T12:00:00Z') - EDGE_CACHE_MS);
    expect(isDue(rec({}), t('2026-11-21T13:00:00Z'))).toBe(false);
    expect(isDue(rec({ insertedAt: '2026-11-21T09:00:00Z' }), t('2026-11-21T13:00:00Z'))).toBe(true); // /all may predate 06:00
    expect(isDue(rec({}), t('2026-11-22T06:00:00Z'))).toBe(true);
  });

  it('a refreshed table is due only after the next recompute', () => {
    const r = rec({ refreshedAt: '2026-11-22T06:30:00Z' });
    for (const now of ['2026-11-22T07:00:00Z', '2026-11-22T23:59:00Z', '2026-11-23T05:59:00Z'])
      expect(isDue(r, t(now)), now).toBe(false);
    expect(isDue(r, t('2026-11-23T06:00:00Z'))).toBe(true);
    expect(isDue(rec({ refreshedAt: 'garbage' }), t('2026-11-23T07:00:00Z'))).toBe(true);
  });
});
