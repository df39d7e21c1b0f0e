// The add-in's spill shapes under the strict model: a 5,000-row table, an empty answer, a table
// without columns, text longer than a cell, each header mode.
import { describe, expect, it } from 'vitest';
import { createExcelRuntime } from './excel-runtime.js';
import { spill } from '../../excel-addin/src/functions/spill';

const matrixFn = { id: 'T', name: 'T', parameters: [], result: { dimensionality: 'matrix' } };
const { resultDefects } = createExcelRuntime({ metadata: { functions: [matrixFn] } });
const defects = (v: unknown) => resultDefects(matrixFn, v);

describe('spill under the strict model', () => {
  it('a 5,000-row table spills as one rectangle, blanks as ""', () => {
    const columns = ['id', 'mw', 'note', 'ok'];
    const rows = Array.from({ length: 5000 }, (_, i) => [
      `p${i}`,
      i % 7 === 0 ? '' : i * 1.5,
      i % 3 ? 'x' : '',
      i % 2 === 0,
    ]);
    for (const mode of [0, 1, 2] as const) {
      const m = spill({ columns, rows, citation: 'DC Hub', asOf: '2026-11-21' }, mode, [
        'cached 09:14, daily limit reached',
      ]);
      expect(defects(m)).toEqual([]);
      expect(m).toHaveLength(5000 + mode + 1);
      expect(m.at(-1)).toEqual(['cached 09:14, daily limit reached', '', '', '']);
    }
  });

  it('an empty answer is a message row, with or without headers, with or without columns', () => {
    for (const mode of [0, 1, 2] as const) {
      for (const columns of [[], ['a', 'b']]) {
        const m = spill({ columns, rows: [] }, mode, [], 'No facilities match this search');
        expect(defects(m), `mode ${mode} columns ${columns.length}`).toEqual([]);
        expect(m.flat()).toContain('No facilities match this search');
      }
    }
  });

  it("an answer's explanations close the spill after its note; on an empty answer they stand where the generic text would", () => {
    const closing = {
      explanations: [
        'excluded by max_ttp_months 30 (average time to power longer): PJM (50.5 months)',
        'Expand max_ttp_months.',
      ],
      notes: ['served from the cache (2 min old): offline'],
    };
    const empty = spill({ columns: ['a', 'b'], rows: [] }, 1, closing, 'No queued projects match these filters');
    expect(defects(empty)).toEqual([]);
    expect(empty.map((r) => r[0])).toEqual(['a', ...closing.explanations, ...closing.notes]);
    const some = spill({ columns: ['a', 'b'], rows: [['x', 1]], note: 'Values in millions USD' }, 0, closing);
    expect(some.map((r) => r[0])).toEqual(['x', 'Values in millions USD', ...closing.explanations, ...closing.notes]);
    // Without explanations the generic text says it, as before.
    expect(spill({ columns: ['a'], rows: [] }, 1, { explanations: [], notes: [] }, 'No rows').map((r) => r[0])).toEqual(
      ['a', 'No rows'],
    );
  });

  it('text longer than a cell holds is clipped, the source row fits a one-column table', () => {
    const m = spill({ columns: ['text'], rows: [['y'.repeat(40000)]], citation: 'DC Hub', asOf: 'today' }, 2);
    expect(defects(m)).toEqual([]);
    expect(m[0]).toEqual(['Source: DC Hub, as of today']);
    expect((m[2][0] as string).length).toBe(32767);
  });
});
