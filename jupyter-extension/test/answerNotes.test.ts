// What the panel's banner says beside an answer: core's notes (answerNotes, toolAnswerNotes), each
// part as the banner shows it (bannerParts, pure: no DOM).
import {
  answerNotes,
  DchubClient,
  MAX_WARNINGS,
  McpToolClient,
  MemoryStore,
  previewInfo,
  QuotaLedger,
  toolAnswerNotes,
  type FetchMeta
} from '@dchub/core';
import { startSandbox } from '@dchub/sandbox/server';
import { describe, expect, it } from 'vitest';
import { bannerParts } from '../src/banner';

const meta = (m: Partial<FetchMeta>): FetchMeta => ({
  fromCache: false,
  stale: false,
  preview: false,
  fetchedAt: 0,
  ageMs: 0,
  warnings: [],
  ...m
});
const shown = (...metas: Array<FetchMeta | undefined>) => bannerParts(answerNotes(metas));

describe('the banner of an answer', () => {
  it('a fresh full answer says nothing, and one fresh from the cache nothing either', () => {
    expect(shown(meta({}), undefined)).toEqual({ explanations: [], warnings: [] });
    expect(shown(meta({ fromCache: true, ageMs: 60_000 }))).toEqual({ explanations: [], warnings: [] });
  });

  it("says what a preview withholds, how many rows exist and which of the user's filters were not applied", () => {
    const info = previewInfo({
      shown: 3,
      total: 4948,
      lockedFields: ['fiber_km', 'capacity_mw'],
      filtersNotApplied: ['min_mw'],
      requiredTier: 'developer',
      upgradeUrl: 'https://dchub.cloud/pricing'
    });
    expect(shown(meta({ preview: true, previewInfo: info })).preview).toBe(
      'Preview: 3 of 4,948 rows shown; withheld: capacity_mw, fiber_km; your filter min_mw was not applied; the Developer plan opens the full answer: https://dchub.cloud/pricing.'
    );
    // A preview the reader could not describe still says it is one.
    expect(shown(meta({ preview: true })).preview).toBe('Preview: part of the data is withheld for your plan.');
  });

  it("lists what the service explains, once across pages, without repeating the preview's sentence", () => {
    const excluded = 'excluded by max_ttp_months 30 (average time to power longer): PJM (50.5 months)';
    const parts = shown(
      meta({ explanations: [excluded, 'Expand max_ttp_months to at least 50.5.'] }),
      meta({ explanations: [excluded] })
    );
    expect(parts.explanations).toEqual([excluded, 'Expand max_ttp_months to at least 50.5.']);
    expect(shown(meta({ explanations: [] })).explanations).toEqual([]);
  });

  it("gives a stale answer's age and reason (the oldest page of several), and no derived line then", () => {
    const metas = [
      meta({ stale: true, ageMs: 3 * 3_600_000 + 5 * 60_000, reason: 'service error' }),
      meta({ stale: true, ageMs: 60_000, reason: 'offline' }),
      meta({ derivedFrom: { path: '/q', query: 'iso=PJM', ageMs: 0 } })
    ];
    expect(answerNotes(metas).stale).toEqual({
      ageMs: 11_100_000,
      reason: 'service error',
      text: 'served from the cache (3 h 5 min old): service error'
    });
    expect(shown(...metas)).toMatchObject({ stale: 'served from the cache (3 h 5 min old): service error' });
    expect(shown(...metas).derived).toBeUndefined();
  });

  it('says an answer was derived locally, and lists each named bad record once', () => {
    const parts = shown(
      meta({
        derivedFrom: { path: '/api/v1/interconnection-queue/refined', query: 'iso=PJM&limit=1000', ageMs: 120_000 },
        warnings: ['chicago: brief failed to build on the service (build_failed:KeyError) (left out)']
      }),
      meta({
        warnings: [
          'chicago: brief failed to build on the service (build_failed:KeyError) (left out)',
          'queue record 7 left out'
        ]
      })
    );
    expect(parts.derived).toBe(
      'answered locally from a cached wider answer (GET /api/v1/interconnection-queue/refined?iso=PJM&limit=1000, 2 min old)'
    );
    expect(parts.warnings).toEqual([
      'chicago: brief failed to build on the service (build_failed:KeyError) (left out)',
      'queue record 7 left out'
    ]);
  });

  it('an MCP partial list: the description the tool result carries', () => {
    const n = answerNotes([], previewInfo({ shown: 3, total: 10, message: 'Upgrade to Pro for all results' }));
    expect(bannerParts(n).preview).toBe('Preview: 3 of 10 rows shown; Upgrade to Pro for all results.');
  });

  it('shows at most MAX_WARNINGS lines, then counts the rest', () => {
    const many = Array.from({ length: MAX_WARNINGS + 3 }, (_, i) => `record ${i} left out`);
    const parts = shown(meta({ warnings: many }));
    expect(parts.warnings).toHaveLength(MAX_WARNINGS + 1);
    expect(parts.warnings.at(-1)).toBe('… and 3 more warnings');
    expect(answerNotes([meta({ warnings: many })]).warnings).toHaveLength(MAX_WARNINGS + 3);
  });
});

describe('tool answer notes (the Tools tab banner)', () => {
  it('carries the call past an assumed MCP allowance as a warning, and a cut list as partial', async () => {
    const sb = await startSandbox({ port: 0, seed: 'notes', now: '2026-11-21T12:00:00Z', keys: 'pro=notes-pro-key' });
    const keyed = new McpToolClient(new DchubClient({ baseUrl: sb.url, apiKey: 'notes-pro-key' }), {
      apiKey: 'notes-pro-key',
      ledger: new QuotaLedger(new MemoryStore(), 'notes', { tier: 'free', allowance: { free: 1 } })
    });
    const keyless = new McpToolClient(new DchubClient({ baseUrl: sb.url }));
    try {
      expect(toolAnswerNotes(await keyed.callTool('get_market_dcpi_rank', { market_slug: 'dallas' }))).toEqual({
        warnings: []
      });
      const past = toolAnswerNotes(await keyed.callTool('get_market_dcpi_rank', { market_slug: 'phoenix' }));
      expect(past.warnings).toEqual([
        expect.stringMatching(/^more than the assumed 1 calls a day \(free tier\) were used/)
      ]);
      expect(past.allowance).toEqual(past.warnings);
      expect(bannerParts(past).warnings).toEqual(past.warnings);
      expect(past.preview).toBeUndefined();
      const cut = await keyless.callTool('search_facilities', {});
      expect(cut.partial).toBe(true);
      expect(bannerParts(toolAnswerNotes(cut)).preview).toMatch(/^Preview: \d+ of [\d,]+ rows shown/);
    } finally {
      await keyed.close();
      await keyless.close();
      await sb.close();
    }
  });
});
