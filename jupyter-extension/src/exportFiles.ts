/**
 * Names and texts of what an export writes (pure, no DOM): dated CSV file names, the citation
 * file beside a CSV, and the notebook cells that load a CSV snapshot with pandas.
 */
import type { Table } from '@dchub/core';

/** `YYYY-MM-DD` of a time in UTC. */
export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** A dated CSV name such as `dchub-queue-2026-11-21.csv` (kind reduced to a safe slug). */
export function datedFileName(kind: string, date: Date): string {
  const slug =
    kind
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'table';
  return `dchub-${slug}-${isoDay(date)}.csv`;
}

/** The n-th alternative of a file name when it is taken: `x.csv`, `x-2.csv`, `x-3.csv`, ... */
export function numberedFileName(name: string, n: number): string {
  if (n <= 1) return name;
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)}-${n}${name.slice(dot)}` : `${name}-${n}`;
}

/** The sibling that keeps a CSV's citation: `x.csv` -> `x.citation.txt`. */
export function citationFileName(csvPath: string): string {
  return csvPath.replace(/\.csv$/i, '') + '.citation.txt';
}

/** Joins a folder and a file name the way the Contents API names paths ('' is the root). */
export function joinPath(dir: string, name: string): string {
  const d = dir.replace(/^\/+|\/+$/g, '');
  return d ? `${d}/${name}` : name;
}

/** Columns that hold dates or times, for `parse_dates`. */
export const DATE_COLUMNS: readonly string[] = ['queue_date', 'live_as_of', 'computed_at', 'as_of', 'snapshot_date'];

/** The table's columns pandas should parse as dates. */
export function dateColumnsOf(table: Pick<Table, 'columns'>): string[] {
  return table.columns.filter((c) => DATE_COLUMNS.includes(c));
}

/** A Python string literal for `s` (JSON escapes are valid Python escapes). */
export function pyString(s: string): string {
  return JSON.stringify(s);
}

/** The code cell that loads an exported CSV as a DataFrame and prints its shape. */
export function pandasSnippet(relativePath: string, dateColumns: readonly string[]): string {
  const dates = dateColumns.length ? `, parse_dates=[${dateColumns.map(pyString).join(', ')}]` : '';
  return `import pandas as pd\ndf = pd.read_csv(${pyString(relativePath)}${dates})\nprint(df.shape)\ndf.head()`;
}

/** Markdown that travels with the data: what it is, where it came from, the citation. */
export function citationMarkdown(opts: {
  title: string;
  path: string;
  citation?: string;
  asOf?: string;
  rows: number;
  exportedAt: Date;
}): string {
  const lines = [
    `**${escapeMarkdown(opts.title)}**: ${opts.rows} rows exported to \`${opts.path}\` on ${opts.exportedAt.toISOString()}.`
  ];
  if (opts.asOf) lines.push('', `Data as of ${escapeMarkdown(opts.asOf)}.`);
  lines.push('', `Source: ${escapeMarkdown(opts.citation ?? 'DC Hub, dchub.cloud')}`);
  return lines.join('\n');
}

/** The plain-text citation file written beside an exported CSV. */
export function citationText(opts: {
  title: string;
  csvName: string;
  citation?: string;
  asOf?: string;
  rows: number;
  exportedAt: Date;
}): string {
  const lines = [`${opts.title}: ${opts.csvName} (${opts.rows} rows)`, `Exported: ${opts.exportedAt.toISOString()}`];
  if (opts.asOf) lines.push(`Data as of: ${opts.asOf}`);
  lines.push(`Citation: ${opts.citation ?? 'DC Hub, dchub.cloud'}`);
  return lines.join('\n') + '\n';
}

function escapeMarkdown(s: string): string {
  return s.replace(/([\\`*_[\]<>])/g, '\\$1');
}
