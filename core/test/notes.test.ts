// The notes of an answer, worded once for every host (core/src/notes.ts): what the CLI prints on
// stderr, Excel's closing rows and cell notes, the panel's banner and Python's warnings all show.
import { describe, expect, it } from 'vitest';
import type { FetchMeta } from '../src/call.js';
import {
  MAX_WARNINGS,
  answerNotes,
  noteList,
  readableTimes,
  refreshedText,
  staleText,
  suggestedMaxTtp,
  toolAnswerNotes,
} from '../src/notes.js';
import { previewInfo } from '../src/preview.js';

const FRESH: FetchMeta = { fromCache: false, stale: false, preview: false, fetchedAt: 0, ageMs: 0, warnings: [] };
/** The FetchMeta of a fresh full answer, but for `m`. */
const meta = (m: Partial<FetchMeta>): FetchMeta => ({ ...FRESH, ...m });

describe('answer notes', () => {
  it('a fresh full answer says nothing; one fresh from the cache says how old', () => {
    expect(answerNotes([meta({}), undefined])).toEqual({ warnings: [] });
    expect(noteList(answerNotes([meta({ fromCache: true, ageMs: 12_000 })]))).toEqual([
      { kind: 'cached', text: 'from the cache (12 s old)' },
    ]);
  });

  it("says what a preview withholds, how many rows exist and which of the user's filters were not applied", () => {
    const info = previewInfo({
      shown: 5,
      total: 312,
      lockedFields: ['power_mw', 'operator'],
      filtersNotApplied: ['market', 'status'],
      requiredTier: 'pro',
    });
    expect(answerNotes([meta({ preview: true, previewInfo: info })]).preview).toBe(
      'Preview: 5 of 312 rows shown; withheld: operator, power_mw; your filters market, status were not applied; ' +
        'the Pro plan opens the full answer.',
    );
    // A preview the reader could not describe still says it is one.
    expect(answerNotes([meta({ preview: true })]).preview).toBe('Preview: part of the data is withheld for your plan.');
  });

  it("lists what the service explains, once across pages, without repeating the preview's sentence", () => {
    const excluded = 'excluded by max_ttp_months 30 (average time to power longer): PJM (50.5 months)';
    const n = answerNotes([
      meta({ explanations: [excluded, 'Expand max_ttp_months to at least 50.5.'] }),
      meta({ explanations: [excluded] }),
    ]);
    expect(n.explanations).toEqual([excluded, 'Expand max_ttp_months to at least 50.5.']);
    expect(answerNotes([meta({ explanations: [] })]).explanations).toBeUndefined();
    const said = previewInfo({ shown: 3, total: 10, message: 'Upgrade to Pro for all results' });
    expect(
      answerNotes([meta({ explanations: ['Upgrade to Pro for all results', excluded] })], said).explanations,
    ).toEqual([excluded]);
  });

  it("gives a stale answer's age and reason (the oldest page of several), and no derived line then", () => {
    const n = answerNotes([
      meta({ stale: true, ageMs: 3 * 3_600_000 + 5 * 60_000, reason: 'service error' }),
      meta({ stale: true, ageMs: 60_000, reason: 'offline' }),
      meta({ derivedFrom: { path: '/q', query: 'iso=PJM', ageMs: 0 } }),
    ]);
    expect(n.stale).toEqual({
      ageMs: 11_100_000,
      reason: 'service error',
      text: 'served from the cache (3 h 5 min old): service error',
    });
    expect(n.derived).toBeUndefined();
    expect(n.cached).toBeUndefined();
  });

  it('a stale reason reads its times as people do; an unknown one says the service could not be asked', () => {
    const n = answerNotes([
      meta({ stale: true, ageMs: 90 * 60_000, reason: 'daily limit reached, resets 2026-11-24T00:00:00Z' }),
    ]);
    expect(n.stale?.text).toBe(
      'served from the cache (1 h 30 min old): daily limit reached, resets 2026-11-24 00:00 UTC',
    );
    expect(n.stale?.reason).toBe('daily limit reached, resets 2026-11-24T00:00:00Z');
    expect(answerNotes([meta({ stale: true, ageMs: 60_000 })]).stale?.text).toBe(
      'served from the cache (1 min old): the service could not be asked',
    );
    expect(readableTimes('resets at 2026-11-24T00:00:00.000Z and 2026-11-25T06:30:00+00:00')).toBe(
      'resets at 2026-11-24 00:00 UTC and 2026-11-25 06:30 UTC',
    );
  });

  it('says an answer was derived locally, and lists each named bad record once', () => {
    const n = answerNotes([
      meta({
        derivedFrom: { path: '/api/v1/interconnection-queue/refined', query: 'iso=PJM&limit=1000', ageMs: 120_000 },
        warnings: ['chicago: brief failed to build on the service (build_failed:KeyError) (left out)'],
      }),
      meta({
        warnings: [
          'chicago: brief failed to build on the service (build_failed:KeyError) (left out)',
          'queue record 7 left out',
        ],
      }),
    ]);
    expect(n.derived).toBe(
      'answered locally from a cached wider answer (GET /api/v1/interconnection-queue/refined?iso=PJM&limit=1000, 2 min old)',
    );
    expect(n.warnings).toEqual([
      'chicago: brief failed to build on the service (build_failed:KeyError) (left out)',
      'queue record 7 left out',
    ]);
  });

  it('an MCP partial list: the description the tool result carries', () => {
    const n = answerNotes([], previewInfo({ shown: 3, total: 10, message: 'Upgrade to Pro for all results' }));
    expect(n.preview).toBe('Preview: 3 of 10 rows shown; Upgrade to Pro for all results.');
  });

  it('the allowance and a gateway notice are warnings of their own kind, never cut with the reader warnings', () => {
    const allowance = 'more than the assumed 10 calls a day (free tier) were used; calls continue';
    const notice = 'the team gateway is degraded';
    const read = Array.from({ length: MAX_WARNINGS + 3 }, (_, i) => `record ${i} left out`);
    const n = answerNotes([meta({ warnings: [...read, allowance, notice], allowance, notice })]);
    expect(n.warnings).toHaveLength(MAX_WARNINGS + 5);
    expect(n).toMatchObject({ allowance: [allowance], notice: [notice] });
    const list = noteList(n);
    expect(list.slice(0, 2)).toEqual([
      { kind: 'allowance', text: allowance },
      { kind: 'notice', text: notice },
    ]);
    const warned = list.filter((x) => x.kind === 'warning').map((x) => x.text);
    expect(warned).toHaveLength(MAX_WARNINGS + 1);
    expect(warned.at(-1)).toBe('… and 3 more warnings');
    const nine = noteList(answerNotes([meta({ warnings: read.slice(0, MAX_WARNINGS + 1) })]));
    expect(nine.at(-1)).toEqual({ kind: 'warning', text: '… and 1 more warning' });
  });

  it('every note in one order: explanations, warnings, the preview, then how the answer was obtained', () => {
    const n = answerNotes([
      meta({
        explanations: ['objective water_stress unavailable: no rows yet'],
        warnings: ['w0'],
        previewInfo: previewInfo({ lockedFields: ['score'], requiredTier: 'pro' }),
        stale: true,
        ageMs: 60_000,
        reason: 'offline',
      }),
    ]);
    expect(noteList(n).map((x) => x.kind)).toEqual(['explanation', 'warning', 'preview', 'stale']);
  });
});

describe('one wording of the other facts', () => {
  it('the stale line MCP answers and chart footers carry, and the time since a refresh', () => {
    expect(staleText(2 * 3_600_000, 'the service could not be reached')).toBe(
      'served from the cache (2 h old): the service could not be reached',
    );
    expect(refreshedText(5 * 60_000)).toBe('refreshed 5 min ago');
    expect(refreshedText(3 * 3_600_000)).toBe('refreshed 3 h ago');
    expect(refreshedText(72 * 3_600_000)).toBe('refreshed 3 days ago');
  });

  it('finds the suggested max_ttp_months: the service suggestion, else the least that keeps an ISO', () => {
    expect(suggestedMaxTtp({ _error_mitigation: { suggested_params: { max_ttp_months: 36 } } })).toBe(36);
    expect(suggestedMaxTtp({ _error_mitigation: { suggested_params: { max_ttp_months: '42' } } })).toBe(42);
    expect(suggestedMaxTtp({ _error_mitigation: { suggested_params: {} }, min_satisfiable_max_ttp_months: 28 })).toBe(
      28,
    );
    expect(suggestedMaxTtp({ min_satisfiable_max_ttp_months: 28 })).toBe(28);
    expect(suggestedMaxTtp({ min_satisfiable_max_ttp_months: null })).toBeUndefined();
    expect(suggestedMaxTtp({})).toBeUndefined();
  });
});

describe('tool answer notes', () => {
  it('a stale tool answer: its age and why as the stale note, not among the warnings; a cached one its age', () => {
    const line = staleText(7_200_000, 'the service could not be reached');
    const r = {
      partial: false,
      fromCache: true,
      stale: true,
      ageMs: 7_200_000,
      reason: 'the service could not be reached',
    };
    const n = toolAnswerNotes({ ...r, warnings: [line, 'past the allowance'] });
    expect(n.stale).toEqual({ ageMs: 7_200_000, reason: 'the service could not be reached', text: line });
    expect(n.warnings).toEqual(['past the allowance']);
    expect(n.allowance).toEqual(['past the allowance']);
    expect(noteList(n).map((x) => x.kind)).toEqual(['allowance', 'stale']);
    expect(toolAnswerNotes({ partial: true, fromCache: true, ageMs: 3_000 })).toEqual({
      preview: 'Partial: the service cut this list for your plan.',
      cached: 'from the cache (3 s old)',
      warnings: [],
    });
  });
});
