import { describe, expect, it } from 'vitest';
import { cell, flattenPaths, readPath, tableFromRecords, tableToMatrix } from '../src/table.js';

describe('cell', () => {
  it('keeps numbers and booleans, blanks missing values', () => {
    expect(cell(12.5)).toBe(12.5);
    expect(cell(0)).toBe(0);
    expect(cell(false)).toBe(false);
    expect(cell(null)).toBe('');
    expect(cell(undefined)).toBe('');
    expect(cell(Number.NaN)).toBe('');
    expect(cell('x')).toBe('x');
    expect(cell({ a: 1 })).toBe('{"a":1}');
    expect(cell(new Date('2026-01-02T03:04:05Z'))).toBe('2026-01-02T03:04:05.000Z');
  });
});

describe('tableFromRecords', () => {
  it('picks columns in the given order and blanks missing ones', () => {
    const t = tableFromRecords([{ b: 2, a: 'x' }, { a: null }], ['a', 'b', 'c'], { citation: 'cite' });
    expect(t.columns).toEqual(['a', 'b', 'c']);
    expect(t.rows).toEqual([
      ['x', 2, ''],
      ['', '', ''],
    ]);
    expect(t.citation).toBe('cite');
    expect(tableToMatrix(t)).toEqual([
      ['a', 'b', 'c'],
      ['x', 2, ''],
      ['', '', ''],
    ]);
    expect(tableToMatrix(t, false)).toHaveLength(2);
  });
});

describe('paths', () => {
  const doc = { a: { b: { c: 3 } }, list: [{ x: 1 }], s: 'y' };
  it('reads dotted paths', () => {
    expect(readPath(doc, 'a.b.c')).toBe(3);
    expect(readPath(doc, 'list.0.x')).toBe(1);
    expect(readPath(doc, 'a.zz.c')).toBeUndefined();
  });
  it('reads own members only: never the prototype chain, in a list only an index it holds', () => {
    for (const p of [
      'constructor',
      '__proto__',
      'toString',
      'a.hasOwnProperty',
      'a.b.c.toFixed',
      's.length',
      'list.length',
      'list.1',
      'list.-1',
      'list.0.constructor.name',
    ]) {
      expect(readPath(doc, p), p).toBeUndefined();
    }
    expect(readPath(Object.create({ inherited: 1 }), 'inherited')).toBeUndefined();
    expect(readPath(JSON.parse('{"__proto__":{"x":5}}'), '__proto__.x')).toBe(5);
  });
  it('flattens scalar leaves', () => {
    expect(flattenPaths(doc)).toEqual([
      ['a.b.c', 3],
      ['list', '[{"x":1}]'],
      ['s', 'y'],
    ]);
  });
});
