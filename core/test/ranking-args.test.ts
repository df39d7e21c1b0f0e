import { describe, expect, it } from 'vitest';
import { ValidationError, namedValues, parseConstraints, parseObjectives, parseScoringMode } from '../src/index.js';

const fails = (fn: () => unknown, param: string, message: RegExp) => {
  let err: unknown;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(ValidationError);
  expect((err as ValidationError).param).toBe(param);
  expect((err as ValidationError).message).toMatch(message);
};

describe('objectives, read once for every host', () => {
  it('reads text with : or =, signs, , or ; between items, and spaces', () => {
    expect(parseObjectives('power:+1,fiber_km:-0.5')).toEqual({ power: 1, fiber_km: -0.5 });
    expect(parseObjectives(' overall_score = 2 ; fiber_km=-1 ')).toEqual({ overall_score: 2, fiber_km: -1 });
  });
  it('reads a two-column range (numbers or text; blank rows skipped), editor rows and an object', () => {
    expect(
      parseObjectives([
        ['power', 1],
        ['', ''],
        ['fiber_km', '-0.5'],
      ]),
    ).toEqual({ power: 1, fiber_km: -0.5 });
    expect(
      parseObjectives([
        { field: 'power', weight: '2' },
        { field: '', weight: '' },
      ]),
    ).toEqual({ power: 2 });
    expect(parseObjectives({ power: 1, fiber_km: '-1' })).toEqual({ power: 1, fiber_km: -1 });
  });
  it('names the argument as the host calls it in every error', () => {
    fails(() => parseObjectives(undefined, '--objectives'), '--objectives', /is required: give field:weight items/);
    fails(() => parseObjectives('power:0'), 'objectives', /weight of power must be a non-zero number .* got "0"/);
    fails(() => parseObjectives('power:lots'), 'objectives', /weight of power must be a non-zero number/);
    fails(() => parseObjectives('power'), 'objectives', /cannot read "power"; write name:value/);
    fails(() => parseObjectives('power:1,power:2'), 'objectives', /power is given twice/);
    fails(() => parseObjectives([['power']]), 'objectives', /two or more columns/);
    fails(() => parseObjectives([['power', '']]), 'objectives', /weight of power .* got nothing/);
    fails(() => parseObjectives(':1'), 'objectives', /cannot read/);
  });
  it('keeps a field named like a prototype member as plain data', () => {
    const o = parseObjectives('__proto__:1,constructor:-1');
    expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
    expect(Object.keys(o)).toEqual(['__proto__', 'constructor']);
    expect(JSON.parse(JSON.stringify(o))).toEqual(JSON.parse('{"__proto__":1,"constructor":-1}'));
  });
});

describe('constraints, read once for every host', () => {
  it('reads field:min:max with a blank bound, min..max, >= and <=, and field:min', () => {
    expect(parseConstraints('power_mw:50:,fiber_km::5')).toEqual({ power_mw: { min: 50 }, fiber_km: { max: 5 } });
    expect(parseConstraints('fiber_km:0..5')).toEqual({ fiber_km: { min: 0, max: 5 } });
    expect(parseConstraints('power_mw>=50, fiber_km <= 5')).toEqual({ power_mw: { min: 50 }, fiber_km: { max: 5 } });
    expect(parseConstraints('power_mw>=50,fiber_km:1:5')).toEqual({
      power_mw: { min: 50 },
      fiber_km: { min: 1, max: 5 },
    });
    expect(parseConstraints('score:-10')).toEqual({ score: { min: -10 } });
  });
  it('reads a three-column range, editor rows and an object; nothing given is no constraint', () => {
    expect(
      parseConstraints([
        ['power_mw', 50, ''],
        ['fiber_km', '', 5],
        [null, 1, 2],
      ]),
    ).toEqual({ power_mw: { min: 50 }, fiber_km: { max: 5 } });
    expect(parseConstraints([{ field: 'power_mw', min: '50', max: '' }])).toEqual({ power_mw: { min: 50 } });
    expect(parseConstraints({ fiber_km: { max: 5 } })).toEqual({ fiber_km: { max: 5 } });
    expect(parseConstraints('')).toBeUndefined();
    expect(parseConstraints([[null, null, null]])).toBeUndefined();
  });
  it('names the argument in every error', () => {
    fails(() => parseConstraints('fiber_km::', '--constraints'), '--constraints', /fiber_km needs a min or a max/);
    fails(() => parseConstraints('fiber_km:a:5'), 'constraints', /min of fiber_km must be a number, got "a"/);
    fails(() => parseConstraints('fiber_km:9:5'), 'constraints', /fiber_km: min 9 is above max 5/);
    fails(() => parseConstraints('fiber_km:1:2:3'), 'constraints', /cannot read "1:2:3"/);
    fails(() => parseConstraints({ fiber_km: { most: 5 } }), 'constraints', /unknown bound "most"/);
    fails(() => parseConstraints('fiber_km'), 'constraints', /cannot read "fiber_km"/);
  });
});

describe('scoring mode and the shared name/value reader', () => {
  it('reads the mode in any case; refuses others naming the argument', () => {
    expect(parseScoringMode(' Absolute ')).toBe('absolute');
    expect(parseScoringMode('')).toBeUndefined();
    fails(() => parseScoringMode('best', '--mode'), '--mode', /must be relative, absolute or percentile, got "best"/);
  });
  it('splits items on the separator asked (tool arguments keep their commas)', () => {
    expect(namedValues('isos=PJM,ERCOT;limit=5', 'args', /;/)).toEqual([
      ['isos', 'PJM,ERCOT'],
      ['limit', '5'],
    ]);
  });
});
