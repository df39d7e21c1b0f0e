import Papa from 'papaparse';
import type { CallOptions, DchubClient } from './client.js';
import { SchemaDriftError } from './errors.js';
import { BRIEF_CSV_COLUMNS, BriefCsvRow, type BriefCsvRowT } from './schemas/briefs.js';
import { tableFromRecords, type Table } from './table.js';

export const BRIEFS_CSV_PATH = '/api/v1/market-brief/all.csv';
export const DCPI_CITATION = 'DC Hub Power Index (DCPI), DC Hub, dchub.cloud, CC-BY-4.0';

export interface BriefsCsv {
  rows: BriefCsvRowT[];
  /** File name from Content-Disposition, used as-is (spec §4.5). */
  filename?: string;
  /** Raw CSV text as served. */
  text: string;
}

/** Parses the brief CSV (header row, RFC 4180 quoting) into typed rows. */
export function parseBriefsCsv(text: string): BriefCsvRowT[] {
  const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
  const missing = BRIEF_CSV_COLUMNS.filter((c) => !parsed.meta.fields?.includes(c));
  if (missing.length) throw new SchemaDriftError('columns', `brief CSV lacks ${missing.join(', ')}`);
  return parsed.data.map((row, i) => {
    const r = BriefCsvRow.safeParse(row);
    if (!r.success) {
      const issue = r.error.issues[0];
      throw new SchemaDriftError(`rows.${i}.${issue?.path.join('.')}`, issue?.message ?? 'bad row');
    }
    return r.data;
  });
}

const filenameOf = (disposition: string | null): string | undefined =>
  disposition ? /filename="?([^";]+)"?/i.exec(disposition)?.[1] : undefined;

/** GET /api/v1/market-brief/all.csv. */
export async function fetchBriefsCsv(client: DchubClient, opts: CallOptions = {}): Promise<BriefsCsv> {
  const raw = await client.getText(BRIEFS_CSV_PATH, undefined, opts);
  return { rows: parseBriefsCsv(raw.text), filename: filenameOf(raw.headers.get('content-disposition')), text: raw.text };
}

/** Brief rows as a table in the CSV's own column order. */
export function briefsTable(rows: readonly BriefCsvRowT[]): Table {
  const asOf = rows.reduce((m, r) => (r.computed_at > m ? r.computed_at : m), '');
  return tableFromRecords(rows, BRIEF_CSV_COLUMNS, { citation: DCPI_CITATION, asOf: asOf || undefined });
}
