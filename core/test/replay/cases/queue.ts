import { expect } from 'vitest';
import { queueAnswer, queueRecord, queueTease } from '../shapes.js';
import type { ReplayCase } from '../types.js';

const Q = '/api/v1/interconnection-queue/refined';
const rows = (n: number, iso = 'ERCOT') => Array.from({ length: n }, (_, i) => queueRecord(i, iso));

export const queueCases: ReplayCase[] = [
  {
    name: 'queue: a full answer with provenance and extra fields',
    source: 'notes §2.21',
    keyed: true,
    routes: [
      { path: Q, reply: { body: queueAnswer(rows(4), { ercotqueue: { attribution: 'ercotqueue.com, CC BY 4.0' } }) } },
    ],
    runs: [
      {
        argv: ['queue', '--iso', 'ERCOT'],
        expect: { code: 0, stdout: ['ERCOT-1000', 'ERCOT-1003', 'Synthetic Solar 100', 'CC-BY-4.0'] },
      },
    ],
    portable: {
      code: 0,
      argv: ['queue', '--iso', 'ERCOT', '--limit', '5', '--format', 'json'],
      notStderr: [/^dchub: Preview/m],
      json: (o) => {
        expect(o.results).toHaveLength(5);
        expect(
          o.results.every(
            (r: { iso: string; capacity_mw: unknown; queue_id: unknown }) =>
              r.iso === 'ERCOT' && typeof r.capacity_mw === 'number' && typeof r.queue_id === 'string',
          ),
        ).toBe(true);
        expect(o.count_total_matching).toBeGreaterThan(5);
        expect(o.provenance?.license).toBe('CC-BY-4.0');
      },
    },
  },
  {
    name: 'queue: the 3-row keyless tease says what is withheld and which of your filters were not applied',
    source: 'notes §1.3, §2.21',
    routes: [{ path: Q, reply: { body: queueTease(4948, ['limit', 'max_fiber_km', 'max_ttp_months', 'min_mw']) } }],
    runs: [
      {
        argv: ['queue', '--iso', 'ERCOT', '--min-mw', '200', '--max-ttp-months', '36', '--format', 'csv'],
        expect: {
          code: 0,
          stderr: [
            /^dchub: Preview: 3 of 4,948 rows shown; withheld: capacity_mw, estimated_ttp_months, fiber_km, site_evaluation_handoff; your filters max_ttp_months, min_mw were not applied; the Developer plan opens the full answer: https:\/\/dchub\.cloud\/go\/c\/replay-token\.$/m,
          ],
          // Withheld numbers are blanks, never 0.
          stdout: [/^ERCOT-1000,Synthetic Solar 100,ERCOT,TX,TRAVIS,Solar,intermittent,,IA FULLY/m],
          notStdout: [/,0,IA FULLY/],
        },
      },
    ],
    portable: {
      code: 0,
      argv: ['queue', '--iso', 'PJM', '--min-mw', '200', '--max-ttp-months', '36', '--format', 'json'],
      stderr: [
        /^dchub: Preview: 3 of [\d,]+ rows shown; withheld: capacity_mw, estimated_ttp_months, fiber_km, site_evaluation_handoff(, total_queued_mw)?; your filters max_ttp_months, min_mw were not applied; the Developer plan opens the full answer: https:\/\/\S+\.$/m,
      ],
      json: (o) => {
        expect(o.results).toHaveLength(3);
        // Withheld numbers stay blank (null), never 0; coordinates at 2 dp.
        for (const r of o.results) {
          expect([r.capacity_mw, r.estimated_ttp_months, r.fiber_km]).toEqual([null, null, null]);
          if (r.lat !== null) expect(Math.round(r.lat * 100) / 100).toBe(r.lat);
        }
        expect(o.count_total_matching).toBeGreaterThan(3);
      },
    },
  },
  {
    name: 'queue: a key below Developer (free) gets the same tease; the key opens nothing more',
    source: 'notes §1.3 (free/identified key → tease), §2.21',
    keyed: true,
    routes: [{ path: Q, reply: { body: queueTease(4948, ['min_mw']) } }],
    runs: [
      {
        argv: ['queue', '--iso', 'ERCOT', '--min-mw', '200'],
        expect: {
          code: 0,
          stderr: [
            /^dchub: Preview: 3 of 4,948 rows shown; withheld: capacity_mw, estimated_ttp_months, fiber_km, site_evaluation_handoff; your filter min_mw was not applied; the Developer plan opens the full answer: https:\/\/dchub\.cloud\/go\/c\/replay-token\.$/m,
          ],
          stdout: ['ERCOT-1000'],
        },
      },
    ],
    portable: {
      code: 0,
      tier: 'free',
      argv: ['queue', '--iso', 'ERCOT', '--min-mw', '200', '--format', 'csv'],
      stderr: [
        /^dchub: Preview: 3 of [\d,]+ rows shown; withheld: capacity_mw, .*; your filter min_mw was not applied; the Developer plan opens the full answer: https:\/\/\S+\.$/m,
      ],
      stdout: [/^queue_id,project_name,iso,/, /^ERCOT-\d+,/m],
    },
  },
  {
    name: 'queue: decimal strings become numbers; null stays blank',
    source: 'issue 10 (decimal strings)',
    keyed: true,
    routes: [
      {
        path: Q,
        reply: {
          body: queueAnswer([
            queueRecord(0, 'ERCOT', {
              capacity_mw: '250.5',
              lat: '30.25',
              fiber_km: null,
              estimated_ttp_months: '32.6',
            }),
          ]),
        },
      },
    ],
    runs: [
      {
        argv: ['queue', '--format', 'json'],
        expect: {
          code: 0,
          json: (o) => {
            expect(o.results[0]).toMatchObject({
              capacity_mw: 250.5,
              lat: 30.25,
              fiber_km: null,
              estimated_ttp_months: 32.6,
            });
          },
        },
      },
    ],
  },
  {
    name: 'queue: the `lon` and `capacity` spellings are read as lng and capacity_mw',
    source: 'notes §2.15, §8',
    keyed: true,
    routes: [
      {
        path: Q,
        reply: {
          body: queueAnswer([
            { queue_id: 'CAISO-1402', iso: 'CAISO', state: 'AZ', lat: 33.99, lon: -114.25, capacity: 3200 },
          ]),
        },
      },
    ],
    runs: [
      {
        argv: ['queue', '--format', 'json'],
        expect: {
          code: 0,
          json: (o) => expect(o.results[0]).toMatchObject({ queue_id: 'CAISO-1402', lng: -114.25, capacity_mw: 3200 }),
        },
      },
    ],
  },
  {
    name: 'queue: one record without queue_id is named and left out; the others survive',
    source: 'issue 10 (one bad record)',
    keyed: true,
    routes: [
      {
        path: Q,
        reply: { body: queueAnswer([queueRecord(0), { ...queueRecord(1), queue_id: undefined }, queueRecord(2)]) },
      },
    ],
    runs: [
      {
        argv: ['queue'],
        expect: {
          code: 0,
          stdout: ['ERCOT-1000', 'ERCOT-1002'],
          notStdout: ['Synthetic Gas 101'],
          stderr: [/^dchub: warning: queue record 2: queue_id missing \(left out\)$/m],
        },
      },
    ],
  },
  {
    name: 'queue: a record of another country with state null is kept',
    source: 'issue 10 (state: null)',
    keyed: true,
    routes: [
      {
        path: Q,
        reply: { body: queueAnswer([queueRecord(0, 'ERCOT', { state: null, county: null }), queueRecord(1)]) },
      },
    ],
    runs: [
      {
        argv: ['queue', '--format', 'json'],
        expect: {
          code: 0,
          json: (o) => expect(o.results.map((r: { state: unknown }) => r.state)).toEqual([null, 'TX']),
        },
      },
    ],
  },
  {
    name: 'queue: the legacy {success, data} envelope',
    source: 'notes §1.2 (legacy Flask envelope)',
    keyed: true,
    routes: [{ path: Q, reply: { body: { success: true, data: rows(2), count_total_matching: 40 } } }],
    runs: [
      {
        argv: ['queue', '--format', 'json'],
        expect: {
          code: 0,
          json: (o) =>
            expect(o).toMatchObject({ _entity: 'queue_results', count_returned: 2, count_total_matching: 40 }),
        },
      },
    ],
  },
  {
    name: 'queue: a bare list without success or counts',
    source: 'issue 10 (lists without success)',
    keyed: true,
    routes: [{ path: Q, reply: { body: rows(3) } }],
    runs: [
      {
        argv: ['queue'],
        expect: {
          code: 0,
          stdout: ['ERCOT-1000', 'ERCOT-1002'],
          stderr: [/count_total_matching missing from the answer/],
        },
      },
    ],
  },
  {
    name: 'queue: count_returned left out is counted from the rows',
    source: 'sandbox schema_drift fault; issue 10',
    keyed: true,
    routes: [{ path: Q, reply: { body: { ...queueAnswer(rows(2)), count_returned: undefined } } }],
    runs: [
      {
        argv: ['queue', '--format', 'json'],
        expect: {
          code: 0,
          json: (o) => expect(o.count_returned).toBe(2),
          stderr: [/^dchub: warning: count_returned missing from the answer; counted from the rows$/m],
        },
      },
    ],
  },
  {
    name: 'queue: a time-to-power cut that empties the set carries the hint',
    source: 'notes §2.21 (_error_mitigation)',
    keyed: true,
    routes: [
      {
        path: Q,
        reply: {
          body: queueAnswer([], {
            filters_applied: {
              min_mw: 0,
              max_ttp_months: 30,
              iso: 'PJM',
              baseload_only: false,
              fuel_type: null,
              status: 'active',
              max_fiber_km: null,
              geocoded_only: false,
            },
            isos_excluded_by_ttp: { PJM: 50.5 },
            min_satisfiable_max_ttp_months: 50.5,
            _error_mitigation: {
              error_version: 1,
              error_code: 'zero_row_ttp_cut',
              severity: 'parameter_adjustment',
              deterministic_hint:
                'No queued capacity matches this time-to-power constraint for the selected ISO(s). Expand max_ttp_months to at least 50.5.',
              suggested_params: { max_ttp_months: 50.5 },
            },
          }),
        },
      },
    ],
    // On stderr in every format (stdout stays pure data): the excluded ISO with its wait, the service's hint.
    runs: ['table', 'csv', 'json'].map((format) => ({
      argv: ['queue', '--iso', 'PJM', '--max-ttp-months', '30', '--format', format],
      expect: {
        code: 0,
        stderr: [
          /^dchub: excluded by max_ttp_months 30 \(average time to power longer\): PJM \(50\.5 months\)$/m,
          /^dchub: No queued capacity matches this time-to-power constraint for the selected ISO\(s\)\. Expand max_ttp_months to at least 50\.5\.$/m,
        ],
        // (the JSON answer carries the service's fields as served)
        notStdout: format === 'json' ? [] : [/Expand max_ttp_months/],
      },
    })),
    portable: {
      code: 0,
      argv: ['queue', '--iso', 'PJM', '--max-ttp-months', '30', '--format', 'csv'],
      stderr: [
        /^dchub: excluded by max_ttp_months 30 \(average time to power longer\): PJM \([\d.]+ months\)$/m,
        /^dchub: .*Expand max_ttp_months to at least \d+(\.\d+)?/m,
      ],
      notStdout: [/Expand max_ttp_months/],
    },
  },
  {
    name: 'queue: a SQL failure answered with 200 {ok:false} is a server error in one line',
    source: 'notes §2.21 (SQL error → 200)',
    keyed: true,
    routes: [
      {
        path: Q,
        reply: {
          body: { ok: false, _entity: 'error', error: 'column "geo_method" does not exist\nLINE 1: SELECT ...' },
        },
      },
    ],
    runs: [
      {
        argv: ['queue'],
        expect: { code: 5, stderr: [/^dchub: column "geo_method" does not exist LINE 1: SELECT \.\.\.$/m] },
      },
    ],
  },
  {
    name: 'queue: 503 no_db',
    source: 'notes §1.4',
    keyed: true,
    routes: [{ path: Q, reply: { status: 503, body: { ok: false, error: 'no_db', _entity: 'error' } } }],
    runs: [{ argv: ['queue'], expect: { code: 5, stderr: [/^dchub: no_db$/m] } }],
  },
  {
    name: 'queue: an answer without any list cannot serve: exit 5 naming the path',
    source: 'issue 10 (SchemaDriftError only when the call cannot be served)',
    keyed: true,
    routes: [{ path: Q, reply: { body: { _entity: 'queue_results', ok: true, count_returned: 0 } } }],
    runs: [
      {
        argv: ['queue'],
        expect: {
          code: 5,
          stderr: [/^dchub: response did not match at results: no list of queue records in the answer$/m],
        },
      },
    ],
  },
];
