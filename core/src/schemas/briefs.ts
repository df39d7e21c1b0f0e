import { z } from 'zod';

/** Columns of /api/v1/market-brief/all.csv, in the order of spec §2.6. */
export const BRIEF_CSV_COLUMNS = [
  'market_slug', 'market_name', 'verdict', 'composite_score', 'excess_power', 'constraint_score',
  'queue_wait_months', 'iso', 'state', 'operational_mw', 'pipeline_mw', 'facility_count',
  'vacancy_pct', 'lease_rate', 'top_operator', 'outlook_word_count', 'live_as_of', 'computed_at',
] as const;
export type BriefCsvColumn = (typeof BRIEF_CSV_COLUMNS)[number];

export const VERDICTS = ['BUILD', 'CAUTION', 'AVOID'] as const;

const csvNumber = z
  .union([z.number(), z.string()])
  .nullable()
  .optional()
  .transform((v) => {
    if (v === null || v === undefined || v === '') return null;
    const n = typeof v === 'number' ? v : Number(v);
    return Number.isFinite(n) ? n : null;
  });
const csvText = z
  .union([z.string(), z.number()])
  .nullable()
  .optional()
  .transform((v) => (v === null || v === undefined ? '' : String(v)));

/** The real service writes `top_operator` as a Python dict repr; keep the operator's name. */
const operatorName = csvText.transform((s) => {
  const m = /'name':\s*'([^']*)'/.exec(s) ?? /"name":\s*"([^"]*)"/.exec(s);
  return m ? m[1] : s;
});

/** One row of the brief CSV, typed. Unknown extra columns are kept. */
export const BriefCsvRow = z.looseObject({
  market_slug: z.string().min(1),
  market_name: csvText,
  verdict: csvText,
  composite_score: csvNumber,
  excess_power: csvNumber,
  constraint_score: csvNumber,
  queue_wait_months: csvNumber,
  iso: csvText,
  state: csvText,
  operational_mw: csvNumber,
  pipeline_mw: csvNumber,
  facility_count: csvNumber,
  vacancy_pct: csvNumber,
  lease_rate: csvNumber,
  top_operator: operatorName,
  outlook_word_count: csvNumber,
  live_as_of: csvText,
  computed_at: csvText,
});
export type BriefCsvRowT = z.output<typeof BriefCsvRow>;
