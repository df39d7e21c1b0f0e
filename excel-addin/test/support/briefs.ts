import { BriefCsvRow, type BriefCsvRowT } from '@dchub/core';

/** A row of /all.csv for the brief-sheet tests: one market with every column, `over` replacing some. */
export const briefRow = (slug: string, over: Partial<Record<string, unknown>> = {}): BriefCsvRowT =>
  BriefCsvRow.parse({
    market_slug: slug,
    market_name: slug.replace(/-/g, ' '),
    verdict: 'BUILD',
    composite_score: 70,
    excess_power: 60,
    constraint_score: 40,
    queue_wait_months: 30,
    iso: 'PJM',
    state: 'VA',
    operational_mw: 1000,
    pipeline_mw: 500,
    facility_count: 12,
    vacancy_pct: 2.5,
    lease_rate: 130,
    top_operator: 'Equinix',
    outlook_word_count: 400,
    live_as_of: '2026-11-21T06:00:00Z',
    computed_at: '2026-11-21T06:00:00Z',
    ...over,
  });
