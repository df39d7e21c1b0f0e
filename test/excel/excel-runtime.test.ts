// The strict runtime model itself: it must refuse each class of defect Excel refuses, and pass
// what Excel shows. Plain functions stand in for the add-in's.
import { describe, expect, it } from 'vitest';
import { EMPTY, createExcelRuntime, range } from './excel-runtime.js';

const fn = (id: string, over: Record<string, unknown> = {}) => ({
  id,
  name: id,
  parameters: [],
  result: {},
  options: { cancelable: true },
  ...over,
});
const metadata = {
  functions: [
    fn('SCALAR'),
    fn('NUM', { result: { type: 'number' } }),
    fn('TABLE', { result: { dimensionality: 'matrix' } }),
    fn('ARGS', {
      parameters: [
        { name: 'a', type: 'any' },
        { name: 'r', type: 'any', dimensionality: 'matrix' },
        { name: 'opt', type: 'any', optional: true },
      ],
      result: { dimensionality: 'matrix' },
    }),
    fn('LIVE', { result: { dimensionality: 'matrix' }, options: { stream: true } }),
    fn('WHERE', { options: { cancelable: true, requiresAddress: true } }),
    fn('UNBOUND'),
  ],
};

function runtime(impl: Record<string, (...a: any[]) => unknown>, platform: 'web' | 'desktop' = 'web') {
  const rt = createExcelRuntime({ metadata, platform });
  for (const [id, f] of Object.entries(impl)) rt.CustomFunctions.associate(id, f);
  return rt;
}
const E = (code: string, message?: string) => ({ code, message });

describe('results', () => {
  const cases: Array<[string, string, unknown, RegExp]> = [
    ['an array from a single-value function', 'SCALAR', [['a', 1]], /declared single-value/],
    ['a one-cell array from a single-value function', 'SCALAR', [[1]], /declared single-value/],
    ['a ragged matrix', 'TABLE', [[], ['No facilities match this search']], /row 0 is empty|not rectangular/],
    ['rows of different widths', 'TABLE', [['a', 'b'], ['c']], /row 1 has 1 cells, row 0 has 2/],
    ['an empty matrix', 'TABLE', [], /empty array/],
    ['a scalar from a matrix function', 'TABLE', 5, /declared matrix/],
    ['a 1-D array from a matrix function', 'TABLE', [1, 2], /row 0 is not an array/],
    ['null', 'SCALAR', null, /null is not a cell value/],
    ['undefined', 'SCALAR', undefined, /undefined is not a cell value/],
    ['NaN', 'SCALAR', NaN, /NaN is not a cell value/],
    ['Infinity', 'SCALAR', Infinity, /Infinity is not a cell value/],
    ['an object', 'SCALAR', { a: 1 }, /an object is not a cell value/],
    ['a Date', 'SCALAR', new Date(0), /a Date is not a cell value/],
    ['a function (a prototype member)', 'SCALAR', Object, /a function is not a cell value/],
    ['null inside a matrix', 'TABLE', [['a', null]], /\[0\]\[1\]: null/],
    ['text longer than a cell holds', 'SCALAR', 'x'.repeat(32768), /32768 characters/],
    ['text from a number function', 'NUM', '42', /text from a function declared number/],
    ['a boolean from a number function', 'NUM', true, /boolean from a function declared number/],
  ];
  for (const [what, id, value, defect] of cases) {
    it(`refuses ${what}`, async () => {
      const rt = runtime({ [id]: async () => value });
      const r = await rt.invoke(id, []);
      expect(r.error).toEqual(E('#VALUE!', ''));
      expect(r.defects.join('\n')).toMatch(defect);
    });
  }

  it('passes what Excel shows: numbers, text, booleans, rectangular tables, per-cell errors', async () => {
    const rt = runtime({
      SCALAR: () => 'text',
      NUM: async () => 3.5,
      TABLE: () => [
        ['a', 1, true],
        ['', 2, new rt.CustomFunctions.Error('#N/A', 'gone')],
      ],
    });
    expect(await rt.invoke('SCALAR', [])).toEqual({ value: 'text' });
    expect(await rt.invoke('NUM', [])).toEqual({ value: 3.5 });
    const t = await rt.invoke('TABLE', []);
    expect(t.defects).toBeUndefined();
    expect(t.value[1][2]).toMatchObject({ code: '#N/A' });
  });

  it('a function never associated shows an error with a defect', async () => {
    const r = await runtime({}).invoke('UNBOUND', []);
    expect(r.defects![0]).toMatch(/never associated/);
  });
});

describe('errors', () => {
  it('shows a CustomFunctions.Error with its code and message', async () => {
    const rt = runtime({
      SCALAR: () => Promise.reject(new rt.CustomFunctions.Error('#VALUE!', 'lat: must be at most 90')),
    });
    expect(await rt.invoke('SCALAR', [])).toEqual({ error: E('#VALUE!', 'lat: must be at most 90') });
  });

  const bad: Array<[string, (rt: any) => unknown, RegExp]> = [
    ['a plain Error', () => new Error('boom'), /Error "boom" is not a CustomFunctions.Error/],
    ['a RangeError (stack overflow)', () => new RangeError('Maximum call stack size exceeded'), /RangeError/],
    ['a string', () => 'boom', /string is not a CustomFunctions.Error/],
    ['a message past 255 characters', (rt) => new rt.CustomFunctions.Error('#N/A', 'x'.repeat(256)), /256 characters/],
    [
      'a stack trace in the message',
      (rt) => new rt.CustomFunctions.Error('#N/A', 'Error: x\n    at f (http://h/functions.js:1:2)'),
      /stack trace/,
    ],
    ['an input-only code', (rt) => new rt.CustomFunctions.Error('#REF!'), /not one a function may return/],
    [
      'a message with a code that shows none',
      (rt) => new rt.CustomFunctions.Error('#NUM!', 'too big'),
      /shows no message with #NUM!/,
    ],
    ['an unknown code', (rt) => new rt.CustomFunctions.Error('#OOPS'), /not one a function may return/],
  ];
  for (const [what, make, defect] of bad) {
    it(`refuses ${what}`, async () => {
      const rt = runtime({
        SCALAR: () => {
          throw make(rt);
        },
      });
      const r = await rt.invoke('SCALAR', []);
      expect(r.error!.code).toBe('#VALUE!');
      expect(r.defects!.join('\n')).toMatch(defect);
    });
  }
});

describe('arguments as Excel passes them', () => {
  it('one per declared parameter, omitted optionals as null, a range as 2-D, the invocation last', async () => {
    let seen: unknown[] = [];
    const rt = runtime({
      ARGS: (...a: unknown[]) => {
        seen = a;
        return [[1]];
      },
    });
    await rt.invoke('ARGS', ['x', range([[1, 'b']])]);
    expect(seen).toHaveLength(4);
    expect(seen.slice(0, 3)).toEqual(['x', [[1, 'b']], null]);
    expect(seen[3]).toMatchObject({ functionName: 'DCHUB.ARGS', isInValuePreview: false });
    expect(seen[3]).not.toHaveProperty('address'); // not declared requiresAddress
    await rt.invoke('ARGS', [range([[7]]), 'text']);
    expect(seen.slice(0, 3)).toEqual([7, [['text']], null]); // a value given to a matrix parameter arrives as [[value]]
  });

  it('the calling cell’s address only for a function that declares requiresAddress', async () => {
    let seen: any;
    const rt = runtime({ WHERE: (inv: unknown) => ((seen = inv), 1) });
    await rt.invoke('WHERE', []);
    expect(seen.address).toBe('Sheet1!A1');
    await rt.invoke('WHERE', [], { address: 'Model!C7' });
    expect(seen.address).toBe('Model!C7');
  });

  it('an empty cell is null on the web and 0 on the desktop', async () => {
    for (const [platform, empty] of [
      ['web', null],
      ['desktop', 0],
    ] as const) {
      let seen: unknown[] = [];
      const rt = runtime({ ARGS: (...a: unknown[]) => ((seen = a), [[1]]) }, platform);
      await rt.invoke('ARGS', [
        EMPTY,
        range([
          ['id', 'km'],
          ['a', EMPTY],
        ]),
      ]);
      expect(seen.slice(0, 2)).toEqual([
        empty,
        [
          ['id', 'km'],
          ['a', empty],
        ],
      ]);
    }
  });

  it('refuses calls Excel cannot make', async () => {
    const rt = runtime({ ARGS: () => [[1]] });
    await expect(rt.invoke('ARGS', ['x'])).rejects.toThrow(/argument r is required/);
    await expect(rt.invoke('ARGS', ['x', 'y', 'z', 'extra'])).rejects.toThrow(/4 arguments for 3 parameters/);
    await expect(rt.invoke('ARGS', [range([[1, 2]]), 'y'])).rejects.toThrow(/1×2 range given to a scalar parameter/);
    await expect(rt.invoke('ARGS', ['x', range([[1], [2, 3]])])).rejects.toThrow(/rectangular/);
    await expect(rt.invoke('ARGS', ['x', [[1]]])).rejects.toThrow(/write range/);
    await expect(rt.invoke('ARGS', [{ a: 1 }, 'y'])).rejects.toThrow(/not a cell value/);
    await expect(rt.invoke('ARGS', ['x'.repeat(32768), 'y'])).rejects.toThrow(/a cell holds at most 32767/);
  });

  it('passes isInValuePreview through the invocation', async () => {
    let preview: unknown;
    const rt = runtime({ SCALAR: (inv: any) => ((preview = inv.isInValuePreview), 1) });
    await rt.invoke('SCALAR', [], { isInValuePreview: true });
    expect(preview).toBe(true);
  });
});

describe('cancelable and streaming', () => {
  it('cancel calls onCanceled; a call that ignores it is a defect', async () => {
    const honours = runtime({
      SCALAR: (inv: any) =>
        new Promise((_, reject) => (inv.onCanceled = () => reject(new rt1.CustomFunctions.Error('#N/A', 'canceled')))),
    });
    const rt1 = honours;
    expect(await honours.invoke('SCALAR', [], { cancelAfterMs: 10 })).toEqual({ error: E('#N/A', 'canceled') });
    const ignores = runtime({ SCALAR: () => new Promise((r) => setTimeout(() => r(1), 1300)) });
    const r = await ignores.invoke('SCALAR', [], { cancelAfterMs: 10 });
    expect(r.defects!.join('\n')).toMatch(/sets no onCanceled/);
    expect(r.defects!.join('\n')).toMatch(/still running/);
  });

  it('streaming delivers through setResult, each result checked; exceptions and return values are defects', async () => {
    const good = runtime({
      LIVE: (inv: any) => {
        let n = 0;
        const t = setInterval(() => inv.setResult([[++n]]), 5);
        inv.onCanceled = () => clearInterval(t);
      },
    });
    const s = good.stream('LIVE', []);
    expect(await s.waitFor(2)).toEqual({ value: [[2]] });
    s.cancel();
    expect(s.defects).toEqual([]);

    const bad = runtime({
      LIVE: (inv: any) => {
        inv.setResult([['a'], []]);
        throw new Error('ignored by Excel');
      },
    });
    const b = bad.stream('LIVE', []);
    expect(b.results[0].defects!.join('\n')).toMatch(/not rectangular/);
    expect(b.defects.join('\n')).toMatch(/Excel ignores exceptions of streaming functions/);
    b.cancel();
    expect(b.defects.join('\n')).toMatch(/without onCanceled/);
    await expect(bad.invoke('LIVE', [])).rejects.toThrow(/use stream/);
  });
});
