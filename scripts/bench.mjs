// `npm run bench`: every benchmark, each figure beside its baseline from the same run; prints a
// table and writes artifacts/bench.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { benchSandbox } from './bench-sandbox.mjs';

const results = {};
const rows = [];

const sandbox = await benchSandbox();
results.sandbox_refined_queue = sandbox;
rows.push({
  benchmark: 'sandbox: refined queue, c=32 (req/s)',
  value: sandbox.queue.rps,
  baseline: `${sandbox.health.rps} (/api/health)`,
  ratio: sandbox.ratio_to_health,
  goal: '≥5000 req/s, p99<20 ms, ratio≥0.5',
  met: sandbox.met,
});
rows.push({ benchmark: 'sandbox: refined queue p99 (ms)', value: sandbox.queue.p99_ms, baseline: `${sandbox.health.p99_ms} (/api/health)`, ratio: '', goal: '<20', met: sandbox.queue.p99_ms < 20 });

console.table(rows);
mkdirSync('artifacts', { recursive: true });
writeFileSync('artifacts/bench.json', JSON.stringify({ when: new Date().toISOString(), results }, null, 2));
console.log('written: artifacts/bench.json');
