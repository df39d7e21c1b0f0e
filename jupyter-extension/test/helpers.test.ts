// Pure helpers of the JupyterLab panel (no DOM, no Lumino): table views, file names, notebook
// snippets, brief paging and relay URLs.
import { briefPageMax, parseCsv, QUEUE_LIMIT_DEFAULT, QUEUE_LIMIT_MAX, toCsv, type Table } from '@dchub/core';
import settingsSchema from '../schema/plugin.json';
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
import { briefsProgressText, callsLeftText, proxyBaseUrl, readRelayQuota, relayRouteUrl } from '../src/helpers';
import { candidatesFromRows, editorConstraints, editorObjectives, numericFields } from '../src/rankForm';
import { DEFAULT_VIEW, compareCells, nextSort, pickRows, verdictColor, viewRows } from '../src/tableView';
import { argControl, recordsValue, toolArgs } from '../src/toolArgs';

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
    expect(dateColumnsOf({ columns: ['market_slug', 'live_as_of', 'computed_at'] })).toEqual([
      'live_as_of',
      'computed_at'
    ]);
  });

  it('writes the pandas loader with parse_dates only when there are date columns', () => {
    expect(pandasSnippet('dchub-queue-2026-11-21.csv', ['queue_date'])).toBe(
      'import pandas as pd\ndf = pd.read_csv("dchub-queue-2026-11-21.csv", parse_dates=["queue_date"])\nprint(df.shape)\ndf.head()'
    );
    expect(pandasSnippet('a "b".csv', [])).toBe(
      'import pandas as pd\ndf = pd.read_csv("a \\"b\\".csv")\nprint(df.shape)\ndf.head()'
    );
  });

  it('keeps the citation with the data (markdown cell and sibling text file)', () => {
    const md = citationMarkdown({
      title: 'DC Hub queue',
      path: 'x.csv',
      citation: 'DC Hub, dchub.cloud',
      asOf: '2026-11-16',
      rows: 4,
      exportedAt: day
    });
    expect(md).toContain('4 rows exported to `x.csv`');
    expect(md).toContain('Source: DC Hub, dchub.cloud');
    expect(md).toContain('Data as of 2026-11-16.');
    const txt = citationText({
      title: 'DC Hub queue',
      csvName: 'x.csv',
      citation: 'DC Hub, dchub.cloud',
      rows: 4,
      exportedAt: day
    });
    expect(txt).toBe(
      'DC Hub queue: x.csv (4 rows)\nExported: 2026-11-21T23:59:00.000Z\nCitation: DC Hub, dchub.cloud\n'
    );
  });

  it('exported CSV stays formula-safe and round-trips', () => {
    const evil: Table = {
      columns: ['name', 'mw'],
      rows: [
        ['=HYPERLINK("x")', -5],
        ['plain', 3]
      ]
    };
    const csv = toCsv(evil);
    expect(csv.split('\r\n')[1]).toBe(`"'=HYPERLINK(""x"")",-5`);
    expect(parseCsv(csv).rows).toEqual([
      ['=HYPERLINK("x")', '-5'],
      ['plain', '3']
    ]);
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
    expect(briefsProgressText(false, { pagesDone: 1, pagesTotal: 2, rowsDone: 50, rowsTotal: 232 })).toBe(
      'Loading briefs: page 1 of 2, 50 of 232 briefs…'
    );
    expect(briefsProgressText(false, { pagesDone: 2, pagesTotal: 2, rowsDone: 232, rowsTotal: 232 })).toBe(
      'Loading briefs…'
    );
  });

  it('the settings’ rows per search follow core’s queue limits', () => {
    const rows = settingsSchema.properties.defaultLimit;
    expect([rows.default, rows.minimum, rows.maximum]).toEqual([QUEUE_LIMIT_DEFAULT, 1, QUEUE_LIMIT_MAX]);
    expect(rows.description).toContain(`1-${QUEUE_LIMIT_MAX}`);
  });

  it('relay URLs sit under the Jupyter base URL', () => {
    expect(proxyBaseUrl('http://localhost:8888/')).toBe('http://localhost:8888/dchub/proxy/');
    expect(proxyBaseUrl('https://hub.example/user/ann/')).toBe('https://hub.example/user/ann/dchub/proxy/');
    expect(relayRouteUrl('https://hub.example/user/ann/', 'config')).toBe('https://hub.example/user/ann/dchub/config');
    expect(relayRouteUrl('http://localhost:8888', 'quota')).toBe('http://localhost:8888/dchub/quota');
  });

  it("reads the relay's ledger for the header, and says whose allowance it is", () => {
    const relay = readRelayQuota({
      tier: 'pro',
      limit: 2000,
      used: 7,
      remaining: 1993,
      resets_at: '2026-11-22T00:00:00.000Z',
      confirmed: true
    });
    expect(relay).toEqual({ remaining: 1993, limit: 2000, confirmed: true, shared: true });
    expect(callsLeftText(relay!)).toBe(
      "1993 calls left today (the server's allowance, shared with its kernels and the dchub CLI)"
    );
    // Spent, as the service stated it: said in words; an assumed allowance past its end still lets calls go.
    expect(callsLeftText({ remaining: 0, limit: 2000, confirmed: true, shared: true })).toMatch(
      /^No calls left today \(/
    );
    expect(callsLeftText({ remaining: 0, limit: 1000, confirmed: false, shared: false })).toBe('0 calls left today');
    expect(callsLeftText({ remaining: 12, limit: 50, confirmed: true, shared: false })).toBe('12 calls left today');
    for (const bad of [
      null,
      'x',
      {},
      { remaining: -1, limit: 10 },
      { remaining: 1.5, limit: 10 },
      { remaining: 3 },
      { error: 'engine', message: 'down' }
    ]) {
      expect(readRelayQuota(bad)).toBeNull();
    }
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
    expect(numericFields(candidatesFromRows(queue, [0, 1], 'queue_id'))).toEqual([
      'capacity_mw',
      'lat',
      'lng',
      'fiber_km'
    ]);
  });

  it('reads objectives and constraints with core, skipping blank rows', () => {
    const objectives = [
      { field: 'capacity_mw', weight: '2' },
      { field: ' fiber_km ', weight: '-1' },
      { field: '', weight: '3' },
      { field: 'x', weight: '' }
    ];
    expect(editorObjectives(objectives)).toEqual({ capacity_mw: 2, fiber_km: -1 });
    // A weight that is no number is refused before any request, naming the argument and the field.
    expect(() => editorObjectives([...objectives, { field: 'bad', weight: 'abc' }])).toThrow(
      /objectives: weight of bad must be a non-zero number.*"abc"/
    );
    expect(() => editorObjectives([{ field: 'x', weight: '' }])).toThrow(/objectives: is required/);
    expect(
      editorConstraints([
        { field: 'capacity_mw', min: '50', max: '' },
        { field: 'fiber_km', min: '', max: '10' },
        { field: 'lat', min: '', max: '' },
        { field: '', min: '1', max: '2' }
      ])
    ).toEqual({ capacity_mw: { min: 50 }, fiber_km: { max: 10 } });
    expect(editorConstraints([{ field: 'lat', min: '', max: '' }])).toBeUndefined();
    expect(() => editorConstraints([{ field: 'fiber_km', min: '9', max: '2' }])).toThrow(
      /constraints: fiber_km: min 9 is above max 2/
    );
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

  it('converts form values with core and leaves blanks and unchecked boxes out', () => {
    const schema = { type: 'object', properties };
    expect(
      toolArgs(schema, {
        lat: '39.5',
        limit: '',
        include_fiber: true,
        mode: '3',
        states: 'VA, TX,',
        ids: '1,2',
        query: 'ashburn'
      })
    ).toEqual({ lat: 39.5, include_fiber: true, mode: 3, states: ['VA', 'TX'], ids: [1, 2], query: 'ashburn' });
    expect(toolArgs(schema, { query: 'x', include_fiber: false })).toEqual({ query: 'x' });
    // What the schema does not take is refused before any call, naming the argument.
    expect(() => toolArgs(schema, { lat: 'north' })).toThrow(/lat: must be a number, got "north"/);
    expect(() => toolArgs(schema, { ids: '1,2,x' })).toThrow(/ids\.2: must be a whole number, got "x"/);
    expect(() => toolArgs({ ...schema, required: ['query'] }, { lat: '1' })).toThrow(/query: is required/);
  });

  it('types a union and records rows by the schema (ai_capacity_index.horizon, compare_sites.sites)', () => {
    const horizon = { anyOf: [{ const: 30 }, { const: 60 }, { const: 90 }] };
    const sites = {
      type: 'array',
      items: { type: 'object', properties: { lat: { type: 'number' }, lon: { type: 'number' } } },
      minItems: 2
    };
    const schema = { type: 'object', properties: { horizon, sites } };
    expect(argControl(horizon)).toBe('enum');
    expect(argControl(sites)).toBe('records');
    expect(recordsValue('39.04,-77.49; 32.9,-97.0', ['lat', 'lon'])).toEqual([
      { lat: '39.04', lon: '-77.49' },
      { lat: '32.9', lon: '-97.0' }
    ]);
    expect(toolArgs(schema, { horizon: '60', sites: '39.04,-77.49; 32.9,-97.0' })).toEqual({
      horizon: 60,
      sites: [
        { lat: 39.04, lon: -77.49 },
        { lat: 32.9, lon: -97 }
      ]
    });
    expect(toolArgs(schema, { sites: '[{"lat": 1, "lon": 2}, {"lat": 3, "lon": "4"}]' })).toEqual({
      sites: [
        { lat: 1, lon: 2 },
        { lat: 3, lon: 4 }
      ]
    });
    expect(() => toolArgs(schema, { horizon: '45' })).toThrow(/horizon: must be 30, 60 or 90/);
    expect(() => toolArgs(schema, { sites: '39,-77' })).toThrow(/sites: needs at least 2 items, got 1/);
    expect(() => toolArgs(schema, { sites: '39,x; 1,2' })).toThrow(/sites\.0\.lon: must be a number/);
  });
});
