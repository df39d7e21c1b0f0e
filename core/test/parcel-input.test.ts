import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/src/server.js';
import { EXIT } from '../src/cli/main.js';
import { cliRunner } from './support/cli.js';
import {
  DchubClient,
  PARCEL_MAX_NESTING,
  ValidationError,
  analyzeParcel,
  nestingDepth,
  parcelGeometry,
} from '../src/index.js';
import { SANDBOX_PROFILES } from './support/profiles.js';

const square = {
  type: 'Polygon',
  coordinates: [
    [
      [-77.5, 39],
      [-77.49, 39],
      [-77.49, 39.01],
      [-77.5, 39.01],
      [-77.5, 39],
    ],
  ],
};
const deepText = `{"type":"Polygon","coordinates":[[[${'['.repeat(16000)}0${']'.repeat(16000)},1],[-77.49,39],[-77.49,39.01],[-77.5,39]]]}`;

describe('parcel input, read in core', () => {
  it('counts nesting without recursion, stopping early', () => {
    expect(nestingDepth(1)).toBe(0);
    expect(nestingDepth(square)).toBe(4);
    expect(nestingDepth({ type: 'MultiPolygon', coordinates: [square.coordinates] })).toBe(5);
    expect(nestingDepth(JSON.parse(deepText))).toBe(1001);
  });
  it('unwraps a Feature, reads GeoJSON text, refuses bad JSON and deep nesting naming the argument', () => {
    expect(
      parcelGeometry({
        type: 'Feature',
        properties: { a: { b: { c: { d: { e: { f: { g: {} } } } } } } },
        geometry: square,
      }),
    ).toEqual(square);
    expect(parcelGeometry(JSON.stringify(square), 'geojson')).toEqual(square);
    expect(() => parcelGeometry('{not json', 'geojson')).toThrow(/^geojson: is not valid JSON$/);
    expect(() => parcelGeometry(deepText, 'geojson')).toThrow(
      /^geojson: is nested over 1,000 levels deep; a Polygon or MultiPolygon needs at most 8$/,
    );
    const nine = { type: 'Polygon', coordinates: [[[[[[[[1]]]]]]]] };
    expect(nestingDepth(nine)).toBe(PARCEL_MAX_NESTING + 1);
    expect(() => parcelGeometry(nine)).toThrow(/^geometry: is nested 9 levels deep/);
  });
  it('analyzeParcel refuses a hostile geometry before any call (it overflowed the stack before)', async () => {
    const client = new DchubClient({ baseUrl: 'http://127.0.0.1:9', retries: 0 });
    const err = await analyzeParcel(client, JSON.parse(deepText)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).param).toBe('geometry');
    expect(client.requestsSent).toBe(0);
  });
});

describe.each(SANDBOX_PROFILES)('parcel input (%s profile)', (profile) => {
  describe('dchub parcel reads the file through core', () => {
    let sb: RunningSandbox;
    let dir: string;
    beforeAll(async () => {
      sb = await startSandbox({ port: 0, profile, seed: 'parcel-input', now: '2026-11-21T12:00:00Z' });
      dir = await mkdtemp(path.join(os.tmpdir(), 'dchub-parcel-'));
    });
    afterAll(async () => {
      await sb?.close();
      await rm(dir, { recursive: true, force: true });
    });
    const dchub = cliRunner(
      () => sb.url,
      () => dir,
    );
    it('a Feature file is analysed; a deep or broken file is a usage error naming the file', async () => {
      const feature = path.join(dir, 'feature.geojson');
      await writeFile(feature, JSON.stringify({ type: 'Feature', properties: { name: 'lot 7' }, geometry: square }));
      const ok = await dchub('parcel', feature, '--format', 'json');
      expect(ok.code).toBe(EXIT.ok);
      expect(JSON.parse(ok.out).total_acres).toBeGreaterThan(200);
      const deep = path.join(dir, 'deep.geojson');
      await writeFile(deep, deepText);
      const d = await dchub('parcel', deep);
      expect(d.code).toBe(EXIT.usage);
      expect(d.err).toContain(`${deep}: is nested over 1,000 levels deep`);
      const broken = path.join(dir, 'broken.geojson');
      await writeFile(broken, '{"type":');
      expect((await dchub('parcel', broken)).err).toContain(`${broken}: is not valid JSON`);
    });
  });
});
