// Pure helpers of the JupyterLab panel (no DOM, no Lumino): table views, file names, notebook
// snippets, brief paging and relay URLs.
import { briefPageMax, parseCsv, toCsv, type Table } from '@dchub/core';
import { describe, expect, it } from 'vitest';
import {
  citationFileName,
  citationMarkdown,
  citationText,
  dateColumnsOf,
  datedFileName,
  joinPath,
  numberedFileName,
  pandasSnippet
} from '../src/exportFiles';
import { briefsProgressText, formatAge, proxyBaseUrl, proxyConfigUrl, suggestedMaxTtp } from '../src/helpers';
import { candidatesFromRows, constraintsFromRows, numericFields, objectivesFromRows } from '../src/rankForm';
import { DEFAULT_VIEW, compareCells, nextSort, pickRows, verdictColor, viewRows } from '../src/tableView';
import { argControl, toolArgs } from '../src/toolArgs';

const table: Table = {
  columns: ['market_slug', 'verdict', 'composite_score', 'queue_date'],
  rows: [
    ['dallas', 'CAUTION', 47.1, '2024-01-02'],
    ['atlanta', 'AVOID', 28.2, ''],
    ['northern-virginia', 'BUILD', 61, '2023-05-06'],
    ['reno', 'AVOID', '', '2025-07-08']
  ],
  citation: 'DC Hub, dchub.cloud',
  asOf: '2026-11-21T06:00:00+00:00'
};

describe('viewRows', () => {
  it('keeps source order without sort or filter', () => {
    expect(viewRows(table, DEFAULT_VIEW)).toEqual([0, 1, 2, 3]);
  });

  it('sorts numbers numerically, blanks last in both directions', () => {
    expect(viewRows(table, { sortColumn: 2, descending: false, filter: '' })).toEqual([1, 0, 2, 3]);
    expect(viewRows(table, { sortColumn: 2, descending: true, filter: '' })).toEqual([2, 0, 1, 3]);
  });

  it('sorts text case-insensitively and stably', () => {
    expect(viewRows(table, { sortColumn: 1, descending: false, filter: '' })).toEqual([1, 3, 2, 0]);
  });

  it('filters on every word, in any cell, case-insensitively', () => {
    expect(viewRows(table, { sortColumn: null, descending: false, filter: 'avoid' })).toEqual([1, 3]);
    expect(viewRows(table, { sortColumn: null, descending: false, filter: 'AVOID ren' })).toEqual([3]);
    expect(viewRows(table, { sortColumn: null, descending: false, filter: '61' })).toEqual([2]);
    expect(viewRows(table, { sortColumn: null, descending: false, filter: 'nothing-like-this' })).toEqual([]);
  });

  it('ignores a sort column outside the table', () => {
    expect(viewRows(table, { sortColumn: 9, descending: false, filter: '' })).toEqual([0, 1, 2, 3]);
  });
});

describe('nextSort and compareCells', () => {
  it('cycles ascending, descending, unsorted on the same column', () => {
    const a = nextSort(DEFAULT_VIEW, 2);
    expect(a).toMatchObject({ sortColumn: 2, descending: false });
    const b = nextSort(a, 2);
    expect(b).toMatchObject({ sortColumn: 2, descending: true });
    expect(nextSort(b, 2)).toMatchObject({ sortColumn: null, descending: false });
    expect(nextSort(b, 1)).toMatchObject({ sortColumn: 1, descending: false });
  });

  it('keeps the filter when sorting', () => {
    expect(nextSort({ ...DEFAULT_VIEW, filter: 'x' }, 0).filter).toBe('x');
  });

  it('orders numbers before text and compares text numerically', () => {
    expect(compareCells(2, 10)).toBeLessThan(0);
    expect(compareCells(2, 'a')).toBeLessThan(0);
    expect(compareCells('PJM-9', 'PJM-10')).toBeLessThan(0);
    expect(compareCells('', 'a')).toBeGreaterThan(0);
  });

  it('pickRows keeps citation and as-of', () => {
    const t = pickRows(table, [2, 0]);
    expect(t.rows.map((r) => r[0])).toEqual(['northern-virginia', 'dallas']);
    expect(t.citation).toBe(table.citation);
    expect(t.asOf).toBe(table.asOf);
  });
});

describe('verdict colours', () => {
  it('colours the three verdicts and nothing else', () => {
    expect(verdictColor('BUILD')).toBe('#2e7d32');
    expect(verdictColor('caution')).toBe('#b26a00');
    expect(verdictColor('AVOID')).toBe('#c62828');
    expect(verdictColor('HOLD')).toBeUndefined();
    expect(verdictColor(3)).toBeUndefined();
  });
});

describe('export names and notebook cells', () => {
  const day = new Date('2026-11-21T23:59:00Z');

  it('names exports by kind and UTC day, citation beside', () => {
    expect(datedFileName('queue', day)).toBe('dchub-queue-2026-11-21.csv');
    expect(datedFileName('Site score!', day)).toBe('dchub-site-score-2026-11-21.csv');
    expect(citationFileName('work/dchub-queue-2026-11-21.csv')).toBe('work/dchub-queue-2026-11-21.citation.txt');
    expect(numberedFileName('dchub-queue-2026-11-21.csv', 1)).toBe('dchub-queue-2026-11-21.csv');
    expect(numberedFileName('dchub-queue-2026-11-21.csv', 3)).toBe('dchub-queue-2026-11-21-3.csv');
    expect(numberedFileName('noext', 2)).toBe('noext-2');
    expect(joinPath('', 'a.csv')).toBe('a.csv');
    expect(joinPath('/x/y/', 'a.csv')).toBe('x/y/a.csv');
  });

  it('picks the date columns present', () => {
    expect(dateColumnsOf(table)).toEqual(['queue_date']);
    expect(dateColumnsOf({ columns: ['market_slug', 'live_as_of', 'computed_at'] })).toEqual(['live_as_of', 'computed_at']);
  });

  it('writes the pandas loader with parse_dates only when there are date columns', () => {
    expect(pandasSnippet('dchub-queue-2026-11-21.csv', ['queue_date'])).toBe(
      'import pandas as pd\ndf = pd.read_csv("dchub-queue-2026-11-21.csv", parse_dates=["queue_date"])\nprint(df.shape)\ndf.head()'
    );
    expect(pandasSnippet('a "b".csv', [])).toBe('import pandas as pd\ndf = pd.read_csv("a \\"b\\".csv")\nprint(df.shape)\ndf.head()');
  });

  it('keeps the citation with the data (markdown cell and sibling text file)', () => {
    const md = citationMarkdown({ title: 'DC Hub queue', path: 'x.csv', citation: 'DC Hub, dchub.cloud', asOf: '2026-11-16', rows: 4, exportedAt: day });
    expect(md).toContain('4 rows exported to `x.csv`');
    expect(md).toContain('Source: DC Hub, dchub.cloud');
    expect(md).toContain('Data as of 2026-11-16.');
    const txt = citationText({ title: 'DC Hub queue', csvName: 'x.csv', citation: 'DC Hub, dchub.cloud', rows: 4, exportedAt: day });
    expect(txt).toBe('DC Hub queue: x.csv (4 rows)\nExported: 2026-11-21T23:59:00.000Z\nCitation: DC Hub, dchub.cloud\n');
  });

  it('exported CSV stays formula-safe and round-trips', () => {
    const evil: Table = { columns: ['name', 'mw'], rows: [['=HYPERLINK("x")', -5], ['plain', 3]] };
    const csv = toCsv(evil);
    expect(csv.split('\r\n')[1]).toBe(`"'=HYPERLINK(""x"")",-5`);
    expect(parseCsv(csv).rows).toEqual([['=HYPERLINK("x")', '-5'], ['plain', '3']]);
  });
});

describe('small parsers', () => {
  it('brief page limits by tier (any case), as core’s plans give them to the panel', () => {
    expect(briefPageMax(undefined)).toBe(50);
    expect(briefPageMax('free')).toBe(50);
    expect(briefPageMax('PRO')).toBe(500);
    expect(briefPageMax('enterprise')).toBe(500);
  });

  it('words the brief progress after each page, and nothing more once done', () => {
    expect(briefsProgressText(false)).toBe('Loading briefs…');
    expect(briefsProgressText(true)).toBe('Checking for changed briefs…');
    expect(briefsProgressText(false, { pagesDone: 1, pagesTotal: 2, rowsDone: 50, rowsTotal: 232 })).toBe('Loading briefs: page 1 of 2, 50 of 232 briefs…');
    expect(briefsProgressText(false, { pagesDone: 2, pagesTotal: 2, rowsDone: 232, rowsTotal: 232 })).toBe('Loading briefs…');
  });

  it('relay URLs sit under the Jupyter base URL', () => {
    expect(proxyBaseUrl('http://localhost:8888/')).toBe('http://localhost:8888/dchub/proxy/');
    expect(proxyBaseUrl('https://hub.example/user/ann/')).toBe('https://hub.example/user/ann/dchub/proxy/');
    expect(proxyConfigUrl('https://hub.example/user/ann/')).toBe('https://hub.example/user/ann/dchub/config');
  });

  it('finds the suggested max_ttp_months', () => {
    expect(suggestedMaxTtp({ _error_mitigation: { suggested_params: { max_ttp_months: 36 } } })).toBe(36);
    expect(suggestedMaxTtp({ min_satisfiable_max_ttp_months: 28 })).toBe(28);
    expect(suggestedMaxTtp({})).toBeUndefined();
  });

  it('formats ages', () => {
    expect(formatAge(5_000)).toBe('just now');
    expect(formatAge(5 * 60_000)).toBe('5 min ago');
    expect(formatAge(3 * 3_600_000)).toBe('3 h ago');
    expect(formatAge(72 * 3_600_000)).toBe('3 days ago');
  });
});

describe('ranking editor helpers', () => {
  const queue: Table = {
    columns: ['queue_id', 'project_name', 'capacity_mw', 'lat', 'lng', 'fiber_km'],
    rows: [
      ['PJM-1', 'A', 100, 39.1, -77.5, 4.2],
      ['PJM-2', 'B', 250, '', '', '']
    ]
  };

  it('builds candidates from selected rows: id plus numeric cells', () => {
    expect(candidatesFromRows(queue, [1, 0], 'queue_id')).toEqual([
      { id: 'PJM-2', capacity_mw: 250 },
      { id: 'PJM-1', capacity_mw: 100, lat: 39.1, lng: -77.5, fiber_km: 4.2 }
    ]);
    expect(numericFields(candidatesFromRows(queue, [0, 1], 'queue_id'))).toEqual(['capacity_mw', 'lat', 'lng', 'fiber_km']);
  });

  it('reads objectives and constraints, skipping blank rows', () => {
    expect(
      objectivesFromRows([
        { field: 'capacity_mw', weight: '2' },
        { field: ' fiber_km ', weight: '-1' },
        { field: '', weight: '3' },
        { field: 'x', weight: '' },
        { field: 'bad', weight: 'abc' }
      ])
    ).toEqual({ capacity_mw: 2, fiber_km: -1, bad: 'abc' });
    expect(
      constraintsFromRows([
        { field: 'capacity_mw', min: '50', max: '' },
        { field: 'fiber_km', min: '', max: '10' },
        { field: 'lat', min: '', max: '' },
        { field: '', min: '1', max: '2' }
      ])
    ).toEqual({ capacity_mw: { min: 50 }, fiber_km: { max: 10 } });
  });
});

describe('MCP tool form', () => {
  const properties = {
    lat: { type: 'number' },
    limit: { type: 'integer' },
    include_fiber: { type: 'boolean' },
    mode: { type: 'string', enum: ['fast', 'full', 3] },
    states: { type: 'array', items: { type: 'string' } },
    ids: { type: 'array', items: { type: 'integer' } },
    query: { type: 'string' }
  };

  it('picks a control per type', () => {
    expect(argControl(properties.lat)).toBe('number');
    expect(argControl(properties.limit)).toBe('number');
    expect(argControl(properties.include_fiber)).toBe('boolean');
    expect(argControl(properties.mode)).toBe('enum');
    expect(argControl(properties.states)).toBe('list');
    expect(argControl({ type: ['string', 'null'] })).toBe('text');
    expect(argControl({})).toBe('text');
  });

  it('converts form values and leaves blanks out', () => {
    expect(
      toolArgs(properties, {
        lat: '39.5',
        limit: '',
        include_fiber: true,
        mode: '3',
        states: 'VA, TX,',
        ids: '1,2,x',
        query: 'ashburn'
      })
    ).toEqual({ lat: 39.5, include_fiber: true, mode: 3, states: ['VA', 'TX'], ids: [1, 2, 'x'], query: 'ashburn' });
    expect(toolArgs(properties, { lat: 'north', include_fiber: false })).toEqual({ lat: 'north' });
  });
});
