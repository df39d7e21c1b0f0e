import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildChart } from '../src/charts/index.js';
import { chartFile } from '../src/engine/charts.js';
import { PNG_SCALE, SVG_MAX_BYTES } from '../src/engine/picture.js';

/**
 * A chart's static picture, drawn by core's own Vega in the engine (what a notebook saves beside the Vega-Lite spec):
 * an SVG, or a PNG rasterized by resvg when the SVG is over SVG_MAX_BYTES (a queue map of many projects); a PNG file
 * at twice the chart's size. Vega is loaded only when a chart is drawn.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const queueRows = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    iso: ['PJM', 'ERCOT', 'MISO'][i % 3],
    fuel_type: ['Solar', 'Wind', 'Natural Gas'][i % 3],
    capacity_mw: 10 + ((i * 37) % 300),
    lat: 30 + ((i * 7) % 150) / 10,
    lng: -120 + ((i * 13) % 400) / 10,
  }));

/** A PNG's width and height from its IHDR chunk (after checking the signature). */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('static pictures', () => {
  it('a small chart is an SVG: its title, its subtitle and its bars drawn', async () => {
    const spec = await buildChart('queue_mix', { rows: queueRows(30), matching: 1611 });
    const p = (await chartFile({ spec, format: 'picture' })) as { mime: string; text: string; width: number };
    expect(p.mime).toBe('image/svg+xml');
    expect(p.text.startsWith('<svg')).toBe(true);
    expect(p.text).toContain('Queued capacity by ISO and fuel');
    expect(p.text).toContain("<tspan>30 of 1,611 matching projects (the call's limit)</tspan>");
    expect(p.width).toBeGreaterThan(400);
    expect(Buffer.byteLength(p.text)).toBeLessThan(SVG_MAX_BYTES);
  });

  it('a queue map of 1,000 projects is a PNG at the chart size, smaller than its SVG', async () => {
    const spec = await buildChart('queue_map', { rows: queueRows(1000) });
    const svg = (await chartFile({ spec, format: 'svg' })) as { text: string };
    expect(Buffer.byteLength(svg.text)).toBeGreaterThan(SVG_MAX_BYTES);
    const p = (await chartFile({ spec, format: 'picture' })) as {
      mime: string;
      base64: string;
      width: number;
      height: number;
    };
    expect(p.mime).toBe('image/png');
    const png = Buffer.from(p.base64, 'base64');
    expect(pngSize(png)).toEqual({ width: Math.ceil(p.width), height: Math.ceil(p.height) });
    expect(png.length).toBeLessThan(Buffer.byteLength(svg.text) / 2);
    // The same map under a higher threshold stays an SVG.
    const asSvg = (await chartFile({ spec, format: 'picture', max_svg_bytes: 10_000_000 })) as { mime: string };
    expect(asSvg.mime).toBe('image/svg+xml');
  });

  it('a PNG file is drawn at twice the chart size, with its text (a font is carried)', async () => {
    const spec = await buildChart('queue_mix', { rows: queueRows(30) });
    const { width, height } = (await chartFile({ spec, format: 'picture' })) as { width: number; height: number };
    const png = Buffer.from(((await chartFile({ spec, format: 'png' })) as { base64: string }).base64, 'base64');
    expect(pngSize(png)).toEqual({ width: Math.ceil(width * PNG_SCALE), height: Math.ceil(height * PNG_SCALE) });
    // Without its text (no title, no axis labels) the picture compresses to less: the text is drawn.
    const bare = await buildChart('queue_mix', { rows: queueRows(30) });
    Object.assign(bare, { title: ' ', config: { ...(bare.config as object), axis: { labels: false, title: null } } });
    const barePng = Buffer.from(
      ((await chartFile({ spec: bare, format: 'png' })) as { base64: string }).base64,
      'base64',
    );
    expect(png.length).toBeGreaterThan(barePng.length + 2000);
  });

  it('the engine loads Vega only when a chart is drawn', async () => {
    // A resolve hook tells which modules the engine (core/dist, built by `tsc -b core`) loads.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'dchub-lazy-'));
    const hooks = path.join(dir, 'hooks.mjs');
    await writeFile(
      hooks,
      'export async function resolve(s, c, next) {\n' +
        '  const r = await next(s, c);\n' +
        '  if (/\\/node_modules\\/(vega|vega-lite|@resvg\\/resvg-wasm)\\//.test(r.url)) process.stderr.write(`LOADED ${s}\\n`);\n' +
        '  return r;\n}\n',
    );
    const register = path.join(dir, 'register.mjs');
    await writeFile(
      register,
      `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
    );
    const hook = pathToFileURL(register).href;
    const child = spawn(process.execPath, ['--import', hook, path.join(ROOT, 'core/dist/engine/dchub-engine.js')], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    const answered = (id: number) =>
      new Promise<void>((resolve) => {
        const t = setInterval(() => out.includes(`"id":${id}`) && (clearInterval(t), resolve()), 20);
      });
    const send = (id: number, method: string, params: Record<string, unknown>) =>
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    const spec = await buildChart('queue_mix', { rows: queueRows(10) });
    send(1, 'ping', {});
    send(2, 'chart', { name: 'queue_mix', data: { rows: queueRows(10) } });
    await answered(2);
    expect(err).not.toContain('LOADED');
    send(3, 'chart_file', { spec, format: 'picture' });
    await answered(3);
    expect(err).toMatch(/LOADED vega\b/);
    child.stdin.end();
    await new Promise((r) => child.on('exit', r));
    await rm(dir, { recursive: true, force: true });
  }, 30_000);
});
