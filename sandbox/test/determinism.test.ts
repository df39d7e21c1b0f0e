import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const main = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/main.js');
const PATHS = [
  '/api/v1/interconnection-queue/refined?iso=PJM,MISO&min_mw=50&limit=1000',
  '/api/v1/interconnection-queue/refined?status=all&geocoded_only=true&limit=1000',
  '/api/site-score?lat=32.78&lon=-96.8&capacity_mw=250',
  '/api/v1/market-brief/all.csv',
];

/** Starts the built sandbox as its own process, reads some answers, stops it. */
async function answers(seed: string): Promise<string[]> {
  const proc: ChildProcess = spawn(process.execPath, [main], {
    env: {
      ...process.env,
      PORT: '0',
      DCHUB_SEED: seed,
      DCHUB_SANDBOX_NOW: '2026-11-21T12:00:00Z',
      DCHUB_SANDBOX_KEYS: 'enterprise=det-key',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    let out = '';
    proc.stdout!.setEncoding('utf8');
    const url = await new Promise<string>((resolve, reject) => {
      proc.stdout!.on('data', (d: string) => {
        out += d;
        const m = /listening on (http:\/\/[\d.:]+)/.exec(out);
        if (m) resolve(m[1]);
      });
      proc.once('exit', (code) => reject(new Error(`sandbox exited ${code}: ${out}`)));
    });
    return await Promise.all(
      PATHS.map(async (p) => (await fetch(url + p, { headers: { 'X-API-Key': 'det-key' } })).text()),
    );
  } finally {
    proc.kill('SIGTERM');
    if (proc.exitCode === null) await once(proc, 'exit');
  }
}

describe('determinism across restarts', () => {
  it('one seed gives byte-identical answers; another seed differs', async () => {
    const [a, b, c] = await Promise.all([answers('alpha'), answers('alpha'), answers('beta')]);
    for (let i = 0; i < PATHS.length; i++) expect(b[i]).toBe(a[i]);
    expect(a[0].length).toBeGreaterThan(10_000);
    expect(c[0]).not.toBe(a[0]);
  });
});
