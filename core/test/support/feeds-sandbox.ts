import { afterAll, beforeAll, expect } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../sandbox/src/server.js';
import * as core from '../../src/index.js';
import type { Profile } from './profiles.js';

/**
 * The sandbox of the facilities, feeds, energy and agent suites (one file each; one describe block over
 * the profiles, named 'feeds, energy, agent (%s profile)' as when they were one file): an Enterprise
 * and a Developer key, the clock control on.
 */
export const ENT = 'e1';
export const DEV = 'd1';

/** Starts a sandbox of `profile` before the calling describe block's tests and closes it after; ways to ask it. */
export function feedsSandbox(profile: Profile) {
  let sb: RunningSandbox;
  beforeAll(async () => {
    sb = await startSandbox({
      port: 0,
      profile,
      seed: 'x',
      now: '2026-11-21T12:00:00Z',
      keys: `developer=${DEV},enterprise=${ENT}`,
      controls: true,
    });
  });
  afterAll(() => sb?.close());

  const client = (apiKey: string | undefined = ENT, tier = 'enterprise') =>
    new core.DchubClient({ baseUrl: sb.url, apiKey, tier, retries: 0 });
  const keyless = () => new core.DchubClient({ baseUrl: sb.url, retries: 0 });
  /** The sandbox's own answer to the same request (plain fetch, same key). */
  const raw = async (p: string, key: string | null = ENT): Promise<any> =>
    (await fetch(sb.url + p, { headers: key ? { 'X-API-Key': key } : {} })).json();
  const rawPost = async (p: string, body: unknown, key: string | null = ENT): Promise<any> =>
    (
      await fetch(sb.url + p, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json', ...(key ? { 'X-API-Key': key } : {}) },
      })
    ).json();
  return { url: () => sb.url, client, keyless, raw, rawPost };
}

/** Rows as long as the header, and the named columns holding numbers (or '' for a missing value). */
export function expectShape(t: core.Table, rows: number, numeric: string[] = [], opts: { allowBlank?: boolean } = {}) {
  expect(t.rows).toHaveLength(rows);
  expect(new Set(t.columns).size).toBe(t.columns.length);
  for (const r of t.rows) {
    expect(r).toHaveLength(t.columns.length);
    for (const c of numeric) {
      const i = t.columns.indexOf(c);
      expect(i, `column ${c}`).toBeGreaterThanOrEqual(0);
      if (opts.allowBlank && r[i] === '') continue;
      expect(typeof r[i], `${c} = ${JSON.stringify(r[i])}`).toBe('number');
    }
  }
}

export const fetchMetaOf = (d: unknown) => {
  const m = core.fetchMeta(d);
  expect(m).toBeDefined();
  return m!;
};

/** Expects a ValidationError naming `param`. */
export async function rejectsParam(p: Promise<unknown>, param: string) {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(core.ValidationError);
  expect((err as core.ValidationError).param).toBe(param);
}
