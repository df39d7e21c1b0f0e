import { describe, expect, it } from 'vitest';
import { readBriefsAll, readBriefsCsv } from '../src/index.js';
import { decode } from './support/decode.js';

const brief = (slug: string) => ({
  slug,
  hero: {
    slug,
    name: slug,
    state: null,
    iso: 'PJM',
    verdict: 'CAUTION',
    composite_score: null,
    excess_power: 45.5,
    constraint_score: 60.2,
    queue_wait_months: null,
    time_to_power_mo: null,
    computed_at: '2026-11-21T06:00:00+00:00',
  },
  live_as_of: { iso: null, age_hours: null },
  kpis: {
    operational_mw: '3500.0',
    pipeline_mw: 9600,
    facility_count: 275,
    vacancy_pct: null,
    lease_rate: null,
    queue_months: null,
    top_operator: { name: 'Equinix', facility_count: 15 },
  },
  outlook: { narrative_md: '…', word_count: 0, generated_at: null, verdict: 'CAUTION', rationale: 'Auto-template' },
  power_grid: null,
  pipeline: [],
  operators: [],
  ma: [],
  comps: { powered_shell: [], land: [] },
  risk: null,
  paywall: {
    required_tier: 'PRO',
    checkout_url: '/pricing?utm_source=market_brief',
    blurb: 'Power & Grid, Pipeline … $499/mo',
  },
});

describe('tolerant readers', () => {
  it('briefs /all: a brief that failed to build is named and left out; the rest survive', () => {
    const d = decode(readBriefsAll, {
      as_of: '2026-11-21T12:00:00Z',
      tier: 'FREE',
      count: 3,
      total_available: 5,
      limit: 50,
      offset: 0,
      streamed: false,
      briefs: [brief('dallas'), { ok: false, slug: 'chicago', error: 'build_failed:KeyError' }, { slug: 'phoenix' }],
    });
    expect(d.value.briefs.map((b) => b.slug)).toEqual(['dallas']);
    expect(d.value.count).toBe(1);
    expect(d.value.briefs[0].kpis.operational_mw).toBe(3500);
    expect(d.warnings).toEqual([
      'chicago: brief failed to build on the service (build_failed:KeyError) (left out)',
      'phoenix: brief failed to build on the service (left out)',
    ]);
    expect(d.preview).toMatchObject({
      requiredTier: 'PRO',
      withheldSections: ['power_grid', 'pipeline', 'operators', 'ma', 'comps', 'risk'],
    });
  });

  it('brief CSV: a streamed failure row is named and left out; a missing column is left blank', () => {
    const warnings: string[] = [];
    const rows = readBriefsCsv(
      'market_slug,market_name,verdict,composite_score,computed_at\r\ndallas,Dallas,BUILD,"71.3",2026-11-21\r\nchicago,,,,build_failed:KeyError\r\n',
      warnings,
    );
    expect(rows.map((r) => r.market_slug)).toEqual(['dallas']);
    expect(rows[0].composite_score).toBe(71.3);
    expect(rows[0].operational_mw).toBeNull();
    expect(warnings[0]).toMatch(/^brief CSV lacks excess_power, .* \(left blank\)$/);
    expect(warnings[1]).toBe('chicago: brief failed to build on the service (build_failed:KeyError) (left out)');
  });
});
