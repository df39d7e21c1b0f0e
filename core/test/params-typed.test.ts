import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { ValidationError } from '../src/errors.js';
import type { FacilitySearchInput } from '../src/facilities.js';
import type { NewsInput, PipelineInput, TransactionsInput } from '../src/feeds.js';
import type { RankSitesInput } from '../src/ranking.js';
import { SemanticSearchBody } from '../src/schemas/agent.js';
import { AgentFacilitiesQuery, OnboardQuery } from '../src/schemas/agent.js';
import { FuelMixQuery } from '../src/schemas/energy.js';
import { FacilitySearchQuery } from '../src/schemas/facilities.js';
import { NewsQuery, PipelineQuery, TransactionsQuery } from '../src/schemas/feeds.js';
import {
  AiCapacityIndexQuery,
  DcpiLeaderboardQuery,
  DcpiScoreListQuery,
  MarketCompareQuery,
} from '../src/schemas/markets.js';
import {
  booleanParam,
  idParam,
  optionalNumber,
  optionalString,
  SHOWN_VALUE_MAX,
  showValue,
} from '../src/schemas/params.js';
import { ParcelRequest } from '../src/schemas/parcel.js';
import { QUEUE_PREDICATES, QueueFilters, queueSearchParams, type QueueFiltersInput } from '../src/schemas/queue.js';
import { RankSitesRequest } from '../src/schemas/ranking.js';
import { SiteScoreQuery, type SiteScoreQueryInput } from '../src/schemas/sites.js';
import { parseParams } from '../src/validate.js';

/** Every parameter schema core exports for a request (query or body). */
const PARAM_SCHEMAS: Record<string, z.ZodType> = {
  QueueFilters,
  SiteScoreQuery,
  NewsQuery,
  TransactionsQuery,
  PipelineQuery,
  FacilitySearchQuery,
  AgentFacilitiesQuery,
  OnboardQuery,
  FuelMixQuery,
  MarketCompareQuery,
  DcpiScoreListQuery,
  DcpiLeaderboardQuery,
  AiCapacityIndexQuery,
  RankSitesRequest,
  ParcelRequest,
  SemanticSearchBody,
};

describe('input types are the schemas’ z.input', () => {
  it('the exported *Input names are aliases of z.input', () => {
    expectTypeOf<QueueFiltersInput>().toEqualTypeOf<z.input<typeof QueueFilters>>();
    expectTypeOf<SiteScoreQueryInput>().toEqualTypeOf<z.input<typeof SiteScoreQuery>>();
    expectTypeOf<NewsInput>().toEqualTypeOf<z.input<typeof NewsQuery>>();
    expectTypeOf<TransactionsInput>().toEqualTypeOf<z.input<typeof TransactionsQuery>>();
    expectTypeOf<PipelineInput>().toEqualTypeOf<z.input<typeof PipelineQuery>>();
    expectTypeOf<FacilitySearchInput>().toEqualTypeOf<z.input<typeof FacilitySearchQuery>>();
    expectTypeOf<RankSitesInput['objectives']>().toEqualTypeOf<z.input<typeof RankSitesRequest>['objectives']>();
  });

  it('a caller may pass numbers or their text, booleans or yes/no text, lists as arrays; the output is typed', () => {
    const input: QueueFiltersInput = {
      iso: ['PJM', 'ercot'],
      min_mw: '100',
      baseload_only: 'yes',
      geocoded_only: 1,
      limit: 5,
      status: null,
    };
    const f = parseParams(QueueFilters, input);
    expectTypeOf(f.min_mw).toEqualTypeOf<number | undefined>();
    expectTypeOf(f.baseload_only).toEqualTypeOf<boolean>();
    expectTypeOf(f.iso).toEqualTypeOf<
      ('PJM' | 'ERCOT' | 'MISO' | 'CAISO' | 'SPP' | 'NYISO' | 'ISO-NE')[] | undefined
    >();
    expect(f).toMatchObject({
      iso: ['PJM', 'ERCOT'],
      min_mw: 100,
      baseload_only: true,
      geocoded_only: true,
      limit: 5,
      status: 'active',
    });
    // @ts-expect-error an object is not a number a caller may pass
    const wrong: QueueFiltersInput = { min_mw: { n: 1 } };
    expect(() => parseParams(QueueFilters, wrong)).toThrow(/^min_mw: must be a number, got an object$/);
  });

  it('lat and lon are required in the input type and at run time', () => {
    // @ts-expect-error lon is required
    const noLon: SiteScoreQueryInput = { lat: 1 };
    expect(() => parseParams(SiteScoreQuery, noLon)).toThrow(/^lon: is required$/);
    expect(parseParams(SiteScoreQuery, { lat: '39.5', lon: -77 })).toMatchObject({ lat: 39.5, lon: -77 });
  });
});

describe('blank, null and text forms', () => {
  it('blank text and null mean "not given"; whitespace around numbers and words is ignored', () => {
    expect(parseParams(NewsQuery, { limit: '', query: '  ', category: null })).toEqual({
      limit: undefined,
      query: undefined,
      category: undefined,
      source: undefined,
    });
    expect(parseParams(QueueFilters, { min_mw: ' 5 ', baseload_only: ' TRUE ' })).toMatchObject({
      min_mw: 5,
      baseload_only: true,
    });
    expect(parseParams(FuelMixQuery, { iso: '' }).iso).toBe('ERCOT');
  });
  it('numbers are decimal text only (no hex, no Infinity)', () => {
    for (const bad of ['0x10', 'Infinity', '1,000', '5 MW'])
      expect(() => parseParams(QueueFilters, { min_mw: bad })).toThrow(ValidationError);
    expect(parseParams(QueueFilters, { min_mw: '1e3' }).min_mw).toBe(1000);
  });
  it('choices take any case and aliases, and name the accepted words', () => {
    expect(parseParams(DcpiScoreListQuery, { sort: 'TTP', verdict: 'build' })).toMatchObject({
      sort: 'time_to_power',
      verdict: 'BUILD',
    });
    expect(() => parseParams(DcpiScoreListQuery, { sort: 'best' })).toThrow(
      /^sort: must be one of excess, constraint, time_to_power, composite, got "best"$/,
    );
    expect(() => parseParams(AiCapacityIndexQuery, { horizon: 85 })).toThrow(
      /^horizon: must be one of 30, 60, 90, got 85$/,
    );
  });
  it('text length is counted in characters (code points), as JSON Schema counts it', () => {
    const s = optionalString({ maxLength: 3 });
    expect(s.parse('𝕿𝖍𝖊')).toBe('𝕿𝖍𝖊');
    expect(() => parseParams(z.object({ s }), { s: '𝕿𝖍𝖊𝖊' })).toThrow(/^s: must be at most 3 characters$/);
  });
});

describe('the nine queue predicates are written once', () => {
  it('QUEUE_PREDICATES lists the filter schema’s keys in order', () => {
    expect(QUEUE_PREDICATES).toEqual([
      'iso',
      'min_mw',
      'max_ttp_months',
      'fuel_type',
      'status',
      'baseload_only',
      'max_fiber_km',
      'geocoded_only',
      'limit',
    ]);
    expect(Object.keys(QueueFilters.shape)).toEqual([...QUEUE_PREDICATES]);
  });
  it('queueSearchParams writes set predicates in that order and parses back to the same filters', () => {
    fc.assert(
      fc.property(
        fc.record(
          {
            iso: fc.subarray(['PJM', 'ERCOT', 'ISO-NE'], { minLength: 1 }),
            min_mw: fc.integer({ min: 0, max: 5000 }),
            fuel_type: fc.constantFrom('Solar', 'Gas', 'Battery Storage'),
            status: fc.constantFrom('active', 'all', 'withdrawn'),
            baseload_only: fc.boolean(),
            max_fiber_km: fc.double({ min: 0, max: 500, noNaN: true }),
            geocoded_only: fc.boolean(),
            limit: fc.integer({ min: 1, max: 1000 }),
          },
          { requiredKeys: [] },
        ),
        (input) => {
          const f = parseParams(QueueFilters, input);
          const p = queueSearchParams(f);
          const keys = [...p.keys()];
          expect(keys).toEqual(QUEUE_PREDICATES.filter((k) => keys.includes(k)));
          expect(parseParams(QueueFilters, Object.fromEntries(p))).toEqual(f);
        },
      ),
      { seed: 12, numRuns: 300 },
    );
  });
});

/** Values that break naive code: objects whose own toString/valueOf are not functions, getters that throw, cycles. */
const hostile = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.anything({
      withNullPrototype: true,
      withBigInt: true,
      withMap: true,
      withSet: true,
      withDate: true,
      withTypedArray: true,
      withSparseArray: true,
      withBoxedValues: true,
    }),
    fc.constantFrom<unknown>(
      { toString: 1 },
      { valueOf: 1, toString: 1 },
      { toJSON: 1 },
      Object.create(null),
      Symbol('s'),
      () => 1,
      {
        get boom() {
          throw new Error('getter');
        },
        toString: () => {
          throw new Error('toString');
        },
      },
      (() => {
        const o: Record<string, unknown> = {};
        o.self = o;
        return o;
      })(),
      new Proxy(
        {},
        {
          get: () => {
            throw new Error('proxy');
          },
          ownKeys: () => {
            throw new Error('proxy keys');
          },
        },
      ),
    ),
  );

describe('parseParams never throws anything but ValidationError on hostile input', () => {
  it.each(Object.entries(PARAM_SCHEMAS))('%s', (_name, schema) => {
    const keys = Object.keys((schema as z.ZodObject).shape ?? {});
    fc.assert(
      fc.property(
        fc.oneof(
          hostile(),
          fc.dictionary(fc.constantFrom(...keys, 'constructor', '__proto__', 'toString'), hostile(), { maxKeys: 4 }),
        ),
        (input) => {
          try {
            parseParams(schema, input);
          } catch (e) {
            expect(e).toBeInstanceOf(ValidationError);
            expect((e as Error).message).not.toMatch(/\n/);
          }
        },
      ),
      { seed: 7, numRuns: 250 },
    );
  });

  it('showValue never throws and stays short', () => {
    fc.assert(
      fc.property(hostile(), (v) => {
        const s = showValue(v);
        expect(typeof s).toBe('string');
        expect(s.length).toBeLessThanOrEqual(SHOWN_VALUE_MAX);
      }),
      { seed: 3, numRuns: 500 },
    );
    expect(showValue({ toString: 1 })).toBe('an object');
    expect(showValue([1, 2, 3])).toBe('a list of 3');
    expect(showValue('x'.repeat(100))).toBe(`"${'x'.repeat(SHOWN_VALUE_MAX - 2)}…`);
    expect(() =>
      parseParams(z.object({ n: optionalNumber(), b: booleanParam(false), id: idParam('id') }), {
        n: { toString: 1 },
        id: 1,
      }),
    ).toThrow(/^n: must be a number, got an object$/);
  });
});
