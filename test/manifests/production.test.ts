// The production manifests (npm run build:prod -w excel-addin with DCHUB_ADDIN_URL): the same
// manifests with the deployed URL in place of the development server, still valid.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import xml2js from 'xml2js';
import { describe, expect, it } from 'vitest';
import { DEV_URL, productionManifest, productionUrl } from '../../excel-addin/manifest-url.js';
import { unifiedSchemaValidator } from './unified-schema';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (f: string) => readFileSync(path.join(root, 'manifests', f), 'utf8');
const PROD = 'https://addins.example.com/dchub/';
/** The URLs a manifest declares (comments left out). */
const urls = (text: string) =>
  [...text.replace(/<!--[\s\S]*?-->/g, '').matchAll(/https:\/\/[^"'<>\s]+/g)].map((m) => m[0]);

describe('production manifests', () => {
  it('takes the deployed URL from DCHUB_ADDIN_URL: https only, a trailing slash added', () => {
    expect(productionUrl('https://addins.example.com/dchub')).toBe(PROD);
    expect(() => productionUrl(undefined)).toThrow(/Set DCHUB_ADDIN_URL/);
    expect(() => productionUrl('http://addins.example.com/')).toThrow(/must be https/);
    expect(() => productionUrl('not a url')).toThrow(/not a URL/);
    expect(() => productionUrl('https://localhost:3000/')).toThrow(/development server/);
    expect(() => productionUrl('https://a.example/?x=1')).toThrow(/query/);
  });

  for (const file of ['manifest.xml', 'manifest.json']) {
    it(`${file}: every development URL becomes the deployed one, nothing else changes`, () => {
      const dev = read(file);
      const prod = productionManifest(dev, PROD);
      expect(prod).not.toContain('localhost');
      const before = urls(dev);
      const after = urls(prod);
      expect(after).toHaveLength(before.length);
      expect(before.filter((u) => u.startsWith(DEV_URL)).length).toBeGreaterThanOrEqual(6);
      after.forEach((u, i) =>
        expect(u).toBe(before[i].startsWith(DEV_URL) ? PROD + before[i].slice(DEV_URL.length) : before[i]),
      );
    });
  }

  it('the XML stays well-formed, the JSON valid against its schema', async () => {
    const xml = await xml2js.parseStringPromise(productionManifest(read('manifest.xml'), PROD), { strict: true });
    expect(xml.OfficeApp.DefaultSettings[0].SourceLocation[0].$.DefaultValue).toBe(`${PROD}taskpane.html`);
    const json = JSON.parse(productionManifest(read('manifest.json'), PROD));
    const { validate } = unifiedSchemaValidator(json.$schema);
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    expect(json.extensions[0].runtimes[0].customFunctions.metadataUrl).toBe(`${PROD}functions.json`);
  });
});
