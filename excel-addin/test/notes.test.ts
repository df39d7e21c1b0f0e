// What an answer says about itself in cells (functions/notes) and the pane's list of one-cell
// answers (shared/cell-notes), under Node with a stand-in for CustomFunctions.
import { attachFetchMeta, previewInfo, type FetchMeta } from '@dchub/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../test/excel/excel-runtime.js';

class CellError {
  constructor(
    readonly code: string,
    readonly message?: string,
  ) {}
}
Object.assign(globalThis, { CustomFunctions: { Error: CellError, ErrorCode: ERROR_CODES } });

const { answerNotes, closingRows, oneCell, oneCellFormula, readableTimes } = await import('../src/functions/notes');
const { cellNotes, clearCellNotes, noteCell, onCellNotes, MAX_CELL_NOTES } = await import('../src/shared/cell-notes');

const meta = (over: Partial<FetchMeta>): FetchMeta => ({
  fromCache: false,
  stale: false,
  preview: false,
  fetchedAt: Date.now(),
  ageMs: 0,
  warnings: [],
  ...over,
});
const answer = (over: Partial<FetchMeta>, body: Record<string, unknown> = {}) => {
  const data = { ...body };
  attachFetchMeta(data, meta(over));
  return data;
};
const tease = previewInfo({
  lockedFields: ['overall_score', 'scores'],
  requiredTier: 'pro',
  upgradeUrl: 'https://dchub.cloud/pricing',
});

beforeEach(() => clearCellNotes());

describe('closing rows of a table', () => {
  it('warnings, then the preview sentence, then how it was obtained (stale last)', () => {
    const data = answer({
      warnings: ['chicago: brief failed to build on the service (left out)'],
      previewInfo: tease,
      stale: true,
      ageMs: 3 * 3_600_000 + 5 * 60_000,
      reason: 'daily limit reached, resets 2026-11-24T00:00:00Z',
    });
    const rows = answerNotes(data);
    expect(rows[0]).toBe('chicago: brief failed to build on the service (left out)');
    expect(rows[1]).toBe(
      'Preview; withheld: overall_score, scores; the Pro plan opens the full answer: https://dchub.cloud/pricing.',
    );
    expect(rows[2]).toBe('served from the cache (3 h 5 min old): daily limit reached, resets 2026-11-24 00:00 UTC');
    expect(rows).toHaveLength(3);
  });

  it('a derived answer names its source and age; a plain answer has no closing row; nine warnings are eight and a count', () => {
    expect(
      answerNotes(
        answer({
          derivedFrom: { path: '/api/v1/interconnection-queue/refined', query: 'iso=PJM&limit=1000', ageMs: 180_000 },
        }),
      ),
    ).toEqual([
      'answered locally from a cached wider answer (GET /api/v1/interconnection-queue/refined?iso=PJM&limit=1000, 3 min old)',
    ]);
    expect(answerNotes(answer({ fromCache: true, ageMs: 60_000 }))).toEqual([]);
    const nine = answerNotes(answer({ warnings: Array.from({ length: 9 }, (_, i) => `w${i}`) }));
    expect(nine).toEqual([...Array.from({ length: 8 }, (_, i) => `w${i}`), '… and 1 more warning']);
  });

  it("the service's explanations come first, apart from the add-in's notes (closingRows), and in answerNotes' one list", () => {
    const data = answer({
      explanations: ['objective water_stress unavailable: no rows yet'],
      warnings: ['w0'],
      stale: true,
      ageMs: 60_000,
      reason: 'offline',
    });
    const { explanations, notes } = closingRows(data);
    expect(explanations).toEqual(['objective water_stress unavailable: no rows yet']);
    expect(notes[0]).toBe('w0');
    expect(notes[1]).toBe('served from the cache (1 min old): offline');
    expect(answerNotes(data)).toEqual([...explanations, ...notes]);
  });

  it('readable reset times', () => {
    expect(readableTimes('resets at 2026-11-24T00:00:00.000Z and 2026-11-25T06:30:00+00:00')).toBe(
      'resets at 2026-11-24 00:00 UTC and 2026-11-25 06:30 UTC',
    );
  });
});

describe('one-cell answers', () => {
  const at = { cell: 'Sheet1!B2', formula: 'SITESCORE' };

  it('a value the preview withholds is #N/A saying so, and the cell is listed as a preview', () => {
    const data = answer({ preview: true, previewInfo: tease }, { overall_score: null, scores: { power: null } });
    for (const path of ['overall_score', 'scores.power']) {
      let thrown: unknown;
      try {
        oneCell(data, path, null, { ...at, shown: 'verdict: Good site' });
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toEqual(
        new CellError(
          '#N/A',
          `DC Hub: ${path} is withheld in this preview (verdict: Good site); the Pro plan opens it: https://dchub.cloud/pricing`,
        ),
      );
    }
    expect(cellNotes()).toEqual([
      expect.objectContaining({ cell: 'Sheet1!B2', formula: 'SITESCORE', kind: 'preview' }),
    ]);
  });

  it('a null nobody withholds is "" (never 0); a value of a preview is returned and listed; a plain answer clears the cell', () => {
    expect(oneCell(answer({}), 'price', null, at)).toBe('');
    expect(cellNotes()).toEqual([]);
    expect(oneCell(answer({ preview: true, previewInfo: tease }), 'nearby.substations_50km', 47, at)).toBe(47);
    expect(cellNotes().map((n) => n.kind)).toEqual(['preview']);
    expect(oneCell(answer({ stale: true, ageMs: 90 * 60_000, reason: 'offline' }), 'x', 5, at)).toBe(5);
    expect(cellNotes().map((n) => n.text)).toEqual(['served from the cache (1 h 30 min old): offline']);
    expect(oneCell(answer({}), 'x', 5, at)).toBe(5);
    expect(cellNotes()).toEqual([]);
  });

  it('a failed formula drops its cell’s note, except the note of a withheld value', async () => {
    noteCell('Sheet1!C3', 'PRICE', { kind: 'stale', text: 'served from the cache (1 h old): offline' });
    await expect(
      oneCellFormula({ cell: 'Sheet1!C3', formula: 'PRICE' }, async () => Promise.reject(new Error('offline'))),
    ).rejects.toThrow('offline');
    expect(cellNotes()).toEqual([]);
    const data = answer({ preview: true, previewInfo: tease }, { overall_score: null });
    await expect(oneCellFormula(at, async () => oneCell(data, 'overall_score', null, at))).rejects.toMatchObject({
      code: '#N/A',
    });
    expect(cellNotes().map((n) => n.cell)).toEqual(['Sheet1!B2']);
  });
});

describe("the pane's list", () => {
  it('keeps the newest cells up to its cap, and tells its listener once per burst', async () => {
    let told = 0;
    const stop = onCellNotes(() => told++);
    for (let i = 0; i < MAX_CELL_NOTES + 5; i++)
      noteCell(`Sheet1!A${i + 1}`, 'DCPI', { kind: 'derived', text: 'answered locally from a cached wider answer' });
    noteCell('Sheet1!A1', 'DCPI', undefined); // already dropped by the cap
    await new Promise((r) => setTimeout(r, 5));
    stop();
    const list = cellNotes();
    expect(list).toHaveLength(MAX_CELL_NOTES);
    expect(list[0].cell).toBe(`Sheet1!A${MAX_CELL_NOTES + 5}`);
    expect(list.some((n) => n.cell === 'Sheet1!A5')).toBe(false);
    expect(told).toBe(1);
  });
});
