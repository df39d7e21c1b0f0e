import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { NOTEBOOK_METHODS } from '../src/notebook/methods.js';
import { CacheInfoAnswer, NOTEBOOK_SIGNATURES, QuotaAnswer } from '../src/notebook/signatures.js';

// The Python API's calls are generated from these (scripts/gen-python.mjs; its output is checked by
// jupyter-extension/test/test_typed_api.py): here, that they are the notebook methods' arguments.
describe("the notebook methods' signatures", () => {
  it('name every method and its arguments, in order', () => {
    expect(Object.keys(NOTEBOOK_SIGNATURES).sort()).toEqual(Object.keys(NOTEBOOK_METHODS).sort());
    for (const [name, m] of Object.entries(NOTEBOOK_METHODS))
      expect(Object.keys(NOTEBOOK_SIGNATURES[name].shape), name).toEqual([...m.args]);
  });

  it('describe every argument (a description for the docstring) as JSON Schema', () => {
    for (const [name, s] of Object.entries(NOTEBOOK_SIGNATURES)) {
      const js = z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }) as { properties?: object };
      for (const [arg, p] of Object.entries(js.properties ?? {})) {
        const text = JSON.stringify(p);
        expect(text, `${name}.${arg}`).toMatch(/"description":"[^"]+/);
      }
    }
  });

  it('say which arguments must be given: a value the schema refuses when left out', () => {
    const required = (name: string) =>
      Object.entries(NOTEBOOK_SIGNATURES[name].shape)
        .filter(([, s]) => !s.safeParse(undefined).success)
        .map(([k]) => k);
    expect(required('site_score')).toEqual(['lat', 'lon']);
    expect(required('rank')).toEqual(['candidates', 'objectives']);
    expect(required('briefs_diff')).toEqual(['since']);
    expect(required('queue')).toEqual([]);
  });

  it("type the engine's quota and cache answers", () => {
    const at = '2026-11-28T00:00:00.000Z';
    const quota = { tier: 'free', limit: 10, used: 1, remaining: 9, resets_at: at, confirmed: true };
    expect(QuotaAnswer.safeParse({ ...quota, via_gateway: false, gateway: null, line: 'x' }).success).toBe(true);
    expect(CacheInfoAnswer.safeParse({ directory: '/tmp', answers: 0 }).success).toBe(true);
  });
});
