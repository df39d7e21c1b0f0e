// Notebook code generation and MCP form typing: pure functions under Node.
import { describe, expect, it } from 'vitest';
import { QUEUE_PREDICATES } from '@dchub/core';
import { argControl, recordsValue, resolveArgSchema, toolArgs } from '../src/toolArgs';
import { QUEUE_CONTROLS, queuePythonCall, type QueueQuery } from '../src/queueForm';
import { formNumber, pythonCall, pythonCell, pythonMarkdown, pyValue } from '../src/pycode';

describe('pythonCall', () => {
  it('writes the panel arguments as keyword arguments, leaving blanks to the API defaults', () => {
    expect(
      pythonCall('queue', {
        iso: 'PJM,ERCOT',
        min_mw: 50,
        fuel_type: 'gas',
        status: '',
        geocoded_only: false,
        limit: undefined
      })
    ).toBe('hub.queue(iso="PJM,ERCOT", min_mw=50, fuel_type="gas")');
    expect(pythonCall('queue', { baseload_only: true, max_fiber_km: 2.5 })).toBe(
      'hub.queue(baseload_only=True, max_fiber_km=2.5)'
    );
  });

  it('writes positional values and nested data as Python literals', () => {
    expect(pythonCall('dcpi', {}, ['dallas'])).toBe('hub.dcpi("dallas")');
    expect(
      pythonCall('rank', { top_k: 2 }, [[{ id: 'a', lat: 1.5, ok: null }], { capacity_mw: 1, fiber_km: -1 }])
    ).toBe('hub.rank([{"id": "a", "lat": 1.5, "ok": None}], {"capacity_mw": 1, "fiber_km": -1}, top_k=2)');
  });

  it('escapes strings safely and passes non-identifier names through **{}', () => {
    expect(pyValue('a"b\\c\n')).toBe('"a\\"b\\\\c\\n"');
    expect(pythonCall('tool', { 'odd-name': 1, ok: 'x' }, ['t'])).toBe('hub.tool("t", ok="x", **{"odd-name": 1})');
  });

  it('keeps text that is not a number, for the API to name the argument', () => {
    expect(formNumber(' 200 ')).toBe(200);
    expect(formNumber('abc')).toBe('abc');
    expect(formNumber('')).toBeUndefined();
  });
});

describe('pythonCell', () => {
  it('makes a client from the environment and never writes a key', () => {
    const code = pythonCell({ call: 'hub.queue(iso="PJM")' });
    expect(code).toContain('from dchub import Client');
    expect(code).toContain('hub = Client()');
    expect(code.trim().split('\n').slice(-2)).toEqual(['df = hub.queue(iso="PJM")', 'df']);
    // How to turn derived answers off is said where the client is made (a comment: the cell still runs as is).
    expect(code).toMatch(/^# .*Client\(derive=False\) asks the service every time\.$/m);
    expect(pythonCell({ call: 'hub.news()', baseUrl: 'http://127.0.0.1:8787', variable: 'news' })).toContain(
      'hub = Client(base_url="http://127.0.0.1:8787")'
    );
  });

  it('puts the citation in the markdown cell', () => {
    const md = pythonMarkdown({
      title: 'DC Hub queue',
      citation: 'DC Hub, dchub.cloud, CC-BY-4.0',
      asOf: '2026-11-23'
    });
    expect(md).toContain('Source: DC Hub, dchub.cloud, CC-BY-4.0');
    expect(md).toContain('re-run'.slice(0, 2));
  });
});

describe('MCP form typing', () => {
  const horizon = {
    anyOf: [
      { type: 'number', const: 30 },
      { type: 'number', const: 60 },
      { type: 'number', const: 90 }
    ]
  };
  const sites = {
    type: 'array',
    items: {
      type: 'object',
      properties: { lat: { type: 'number' }, lon: { type: 'number' }, name: { type: 'string' } }
    }
  };

  it('a union of constants is a choice that sends the typed value', () => {
    expect(resolveArgSchema(horizon).enum).toEqual([30, 60, 90]);
    expect(argControl(horizon)).toBe('enum');
    expect(toolArgs({ properties: { horizon } }, { horizon: '60' })).toEqual({ horizon: 60 });
  });

  it('a string-or-number union sends a number when the text is one', () => {
    const limit = { anyOf: [{ type: 'integer' }, { type: 'string' }] };
    expect(argControl(limit)).toBe('text');
    expect(toolArgs({ properties: { limit } }, { limit: '20' })).toEqual({ limit: 20 });
    expect(toolArgs({ properties: { limit } }, { limit: 'all' })).toEqual({ limit: 'all' });
  });

  it('an array of records takes JSON or the lat,lon; shorthand', () => {
    expect(argControl(sites)).toBe('records');
    expect(toolArgs({ properties: { sites } }, { sites: '39.0,-77.5; 40.1,-75.2,Philly' })).toEqual({
      sites: [
        { lat: 39, lon: -77.5 },
        { lat: 40.1, lon: -75.2, name: 'Philly' }
      ]
    });
    expect(toolArgs({ properties: { sites } }, { sites: '[{"lat": 1, "lon": 2}]' })).toEqual({
      sites: [{ lat: 1, lon: 2 }]
    });
    expect(toolArgs({ properties: { sites } }, { sites: '{"lat": 1, "lon": 2}' })).toEqual({
      sites: [{ lat: 1, lon: 2 }]
    });
    // Broken JSON goes to core as typed, which names the argument.
    expect(recordsValue('[oops', ['lat', 'lon'])).toBe('[oops');
    expect(() => toolArgs({ properties: { sites } }, { sites: '[oops' })).toThrow(/^sites/);
  });

  it('an array of numbers is typed item by item; an item that is no number is named', () => {
    const ids = { type: 'array', items: { type: 'integer' } };
    expect(toolArgs({ properties: { ids } }, { ids: '1, 2,' })).toEqual({ ids: [1, 2] });
    expect(() => toolArgs({ properties: { ids } }, { ids: '1, 2,x' })).toThrow(
      /ids\.2: must be a whole number, got "x"/
    );
  });
});

describe('the queue form and core’s predicates', () => {
  const blank: QueueQuery = {
    iso: [],
    min_mw: '',
    max_ttp_months: '',
    fuel_type: '',
    status: '',
    baseload_only: false,
    max_fiber_km: '',
    geocoded_only: false,
    limit: ''
  };

  it('has a control for each of core’s predicates, in core’s order', () => {
    expect(Object.keys(QUEUE_CONTROLS)).toEqual([...QUEUE_PREDICATES]);
  });

  it('writes hub.queue(...) with core’s defaults left out', () => {
    expect(queuePythonCall(blank, 200)).toBe('hub.queue()');
    expect(queuePythonCall({ ...blank, status: 'active', limit: '200' }, 500)).toBe('hub.queue()');
    expect(queuePythonCall(blank, 500)).toBe('hub.queue(limit=500)');
    expect(
      queuePythonCall(
        {
          ...blank,
          iso: ['PJM', 'ERCOT'],
          min_mw: '50',
          fuel_type: ' gas ',
          status: 'all',
          geocoded_only: true,
          max_fiber_km: '2.5'
        },
        200
      )
    ).toBe(
      'hub.queue(iso="PJM,ERCOT", min_mw=50, fuel_type="gas", status="all", max_fiber_km=2.5, geocoded_only=True)'
    );
  });
});
