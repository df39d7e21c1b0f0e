// `npm run bench`: every benchmark, each figure beside its baseline from the same run; prints a
// table and writes artifacts/bench.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { benchCore } from './bench-core.mjs';
import { benchDerive } from './bench-derive.mjs';
import { benchExcel } from './bench-excel.mjs';
import { benchExcelReopen } from './bench-excel-reopen.mjs';
import { benchGateway } from './bench-gateway.mjs';
import { benchGrid } from './bench-grid.mjs';
import { benchMap } from './bench-map.mjs';
import { benchPython } from './bench-python.mjs';
import { benchSandbox } from './bench-sandbox.mjs';

const results = {};
const round = (n) => Math.round(n * 10000) / 10000;
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
rows.push({
  benchmark: 'sandbox: refined queue p99 (ms)',
  value: sandbox.queue.p99_ms,
  baseline: `${sandbox.health.p99_ms} (/api/health)`,
  ratio: '',
  goal: '<20',
  met: sandbox.queue.p99_ms < 20,
});
rows.push({
  benchmark: 'sandbox: a 60,000-vertex parcel refused (median ms)',
  value: sandbox.refusal.refused_ms,
  baseline: `${sandbox.refusal.answered_ms} (a 5-vertex parcel answered)`,
  ratio: sandbox.refusal.ratio,
  goal: '<100 ms',
  met: sandbox.refusal.met,
});

const gateway = await benchGateway();
results.gateway = gateway;
const team = gateway.workload;
rows.push({
  benchmark: `gateway: upstream requests, ${team.analysts} analysts × ${team.formulas_each} formulas / ${team.distinct_questions} distinct, ${team.replicas} replicas (derive ${team.derive})`,
  value: team.upstream_requests,
  baseline: `${team.without_gateway_requests} (each analyst alone); ${team.per_analyst_cache_requests} (a cache each)`,
  ratio: `${team.ratio_to_without}; ${team.ratio_to_per_analyst_cache}`,
  goal: `≤${team.distinct_questions}, all answered`,
  met: team.met,
});
const cached = gateway.throughput;
rows.push({
  benchmark: `gateway: a cached answer, c=${cached.concurrency} (req/s; p50/p99 ms ${cached.gateway.p50_ms}/${cached.gateway.p99_ms})`,
  value: cached.gateway.rps,
  baseline: `${cached.health.rps} (sandbox /api/health; p50/p99 ${cached.health.p50_ms}/${cached.health.p99_ms})`,
  ratio: cached.ratio_to_health,
  goal: 'ratio ≥0.5',
  met: cached.met,
});
rows.push({
  benchmark: `gateway: Redis commands per cached answer (${gateway.redis_round_trips.answers} answers, MONITOR)`,
  value: gateway.redis_round_trips.per_answer,
  baseline: `${gateway.redis_round_trips.commands} commands`,
  ratio: '',
  goal: '≤2',
  met: gateway.redis_round_trips.met,
});

const core = await benchCore();
results.core = core;
rows.push({
  benchmark: 'core: requests for 3×1,000 calls / 200 distinct',
  value: core.request_economy.requests_sent,
  baseline: `${core.request_economy.naive_requests} (plain fetch per call)`,
  ratio: round(core.request_economy.requests_sent / core.request_economy.naive_requests),
  goal: 'exactly 200',
  met: core.request_economy.met,
});
rows.push({
  benchmark: 'core: warm-cache cost per call (µs, 100,000 calls)',
  value: core.warm_cache_per_call.us_per_call,
  baseline: `${core.warm_cache_per_call.naive_fetch_us_per_call} (plain fetch)`,
  ratio: round(core.warm_cache_per_call.us_per_call / core.warm_cache_per_call.naive_fetch_us_per_call),
  goal: '<5 µs',
  met: core.warm_cache_per_call.met,
});
rows.push({
  benchmark: `core: shape ${core.shape_queue_rows.rows} queue rows (ms)`,
  value: core.shape_queue_rows.ms,
  baseline: `${core.shape_queue_rows.naive_json_parse_ms} (JSON.parse of the answer)`,
  ratio: core.shape_queue_rows.ratio_to_parse,
  goal: '<10 ms',
  met: core.shape_queue_rows.met,
});

rows.push({
  benchmark: `core: queue map spec for ${core.queue_map_spec.rows.toLocaleString('en-US')} survivors (ms; ${core.queue_map_spec.drawn} drawn, ${Math.round(core.queue_map_spec.bytes / 1024)} KiB)`,
  value: core.queue_map_spec.ms,
  baseline: `${core.queue_map_spec.naive_json_parse_ms} (JSON.parse of the answer)`,
  ratio: round(core.queue_map_spec.ms / core.queue_map_spec.naive_json_parse_ms),
  goal: '<20 ms',
  met: core.queue_map_spec.met,
});

if (core.brief_refresh_bytes.diff_bytes)
  rows.push({
    benchmark: 'core: brief refresh bytes via /diff (5 of 232 changed)',
    value: core.brief_refresh_bytes.diff_bytes,
    baseline: `${core.brief_refresh_bytes.full_json_bytes} (full /all)`,
    ratio: core.brief_refresh_bytes.ratio,
    goal: '<5%',
    met: core.brief_refresh_bytes.met,
  });

const derive = await benchDerive();
results.derive_workbook_workload = derive;
rows.push({
  benchmark: 'core: workbook, 200 QUEUE sets + 40 DCPI cells, free key, CLI (requests)',
  value: derive.requests,
  baseline: `${derive.naive_requests} (one per distinct argument set, --no-derive)`,
  ratio: round(derive.requests / derive.naive_requests),
  goal: '≤10',
  met: derive.met,
});
rows.push({
  benchmark: 'core: same workbook, bytes received',
  value: derive.bytes,
  baseline: `${derive.naive_bytes} (--no-derive)`,
  ratio: round(derive.bytes / derive.naive_bytes),
  goal: 'report',
  met: true,
});

const excel = await benchExcel();
results.excel_recalc_storm = excel.recalc_storm;
results.excel_bundle = excel.bundle;
const storm = excel.recalc_storm;
rows.push({
  benchmark: 'excel: requests, 1,000 cells / 200 distinct, 2 passes',
  value: `${storm.first_pass_requests} + ${storm.second_pass_requests}`,
  baseline: `${storm.naive_requests} (one fetch per cell)`,
  ratio: round((storm.first_pass_requests + storm.second_pass_requests) / storm.naive_requests),
  goal: '≤200, then 0',
  met: storm.met,
});
const bundle = excel.bundle;
rows.push({
  benchmark: 'excel: initial functions.js (KiB, minified)',
  value: bundle.initial_functions_js_kib,
  baseline: `${bundle.baseline_functions_js_kib} (${bundle.baseline_commit})`,
  ratio: round(bundle.initial_functions_js_kib / bundle.baseline_functions_js_kib),
  goal: '≤150 KiB',
  met: bundle.met,
});
rows.push({
  benchmark: 'excel: JS loaded before the first answer (KiB)',
  value: bundle.js_kib_before_first_answer,
  baseline: `${bundle.baseline_js_kib_before_first_answer} (${bundle.baseline_commit})`,
  ratio: round(bundle.js_kib_before_first_answer / bundle.baseline_js_kib_before_first_answer),
  goal: 'report',
  met: true,
});
rows.push({
  benchmark: 'excel: bundle load → first SITESCORE, warm cache (ms, median)',
  value: bundle.warm_first_sitescore_ms,
  baseline: `${bundle.baseline_warm_first_sitescore_ms} (${bundle.baseline_commit})`,
  ratio: round(bundle.warm_first_sitescore_ms / bundle.baseline_warm_first_sitescore_ms),
  goal: 'report; no call',
  met: bundle.service_calls_while_warm === 0,
});

const reopen = await benchExcelReopen();
results.excel_workbook_reopen = reopen;
rows.push({
  benchmark: `excel: workbook of 1,000 cells (${reopen.card_cells} cards) / 200 distinct, first open (ms to fill; requests)`,
  value: `${reopen.first_open_ms} ms; ${reopen.first_open_requests}`,
  baseline: '≤200 requests (one per distinct set)',
  ratio: '',
  goal: 'report; ≤200 requests',
  met: reopen.first_open_requests <= reopen.distinct,
});
rows.push({
  benchmark:
    'excel: the same workbook opened again, new runtime over its persisted storage (ms to fill all 1,000 cells, median)',
  value: reopen.reopen_ms,
  baseline: `${reopen.first_open_ms} (first open)`,
  ratio: round(reopen.reopen_ms / reopen.first_open_ms),
  goal: `0 requests (${reopen.reopen_requests}), ≤1,000 ms`,
  met: reopen.met,
});

const grid = await benchGrid();
results.jupyter_grid = grid;
const sweep = (n) => grid.sweep.find((r) => r.rows === n);
for (const r of grid.sweep) {
  rows.push({
    benchmark: `jupyter: data arrival → first grid, ${r.rows.toLocaleString('en-US')} rows: our part (ms)`,
    value: r.ours_ms,
    baseline: `browser canvas ${r.canvas_ms} (blit ${r.blit_ms}); parse ${r.parse_ms}, shape ${r.shape_ms}, model ${r.model_ms}, paint ${r.paint_ms}`,
    ratio: r.rows === 5370 ? grid.ratio_ours_to_dom : r.rows === 50000 ? grid.ratio_ours_50000_to_5370 : '',
    goal: r.rows === 5370 ? '≤50 ms' : r.rows === 50000 ? '≤1.2× the 5,370 figure' : 'report',
    met: r.rows === 5370 ? grid.goals.ours_5370_le_50ms : r.rows === 50000 ? grid.goals.ours_50000_le_1_2x : true,
  });
}
rows.push({
  benchmark: 'jupyter: naive DOM <table> of 5,370 rows (ms)',
  value: grid.naive_dom_table_5370_ms,
  baseline: 'the baseline of the 5,370 row',
  ratio: '',
  goal: 'report',
  met: true,
});
rows.push({
  benchmark: 'jupyter: sort 50,000 rows by a header click (ms, our part)',
  value: sweep(50000).sort_ms,
  baseline: `${sweep(5370).sort_ms} at 5,370 rows`,
  ratio: '',
  goal: '<100 ms',
  met: grid.goals.sort_50000_lt_100ms,
});
rows.push({
  benchmark: 'jupyter: filter 50,000 rows (ms, our part)',
  value: sweep(50000).filter_ms,
  baseline: `${sweep(5370).filter_ms} at 5,370 rows`,
  ratio: '',
  goal: '<100 ms',
  met: grid.goals.filter_50000_lt_100ms,
});

const map = await benchMap();
results.jupyter_map = map;
rows.push({
  benchmark: `jupyter: data arrival → first painted map, ${map.rows.toLocaleString('en-US')} queue rows (${map.drawn.toLocaleString('en-US')} points): our part (ms)`,
  value: map.ours_ms,
  baseline: `JupyterLab's Vega-Lite renderer ${map.renderer_ms}, paint to the next frame ${map.paint_ms}; parse ${map.parse_ms}, table, records and points ${map.table_ms}, rest of the spec ${map.spec_ms}`,
  ratio: round(map.ours_ms / map.renderer_ms),
  goal: '≤50 ms',
  met: map.goals.ours_le_50ms,
});
rows.push({
  benchmark: 'jupyter: the same map as a notebook output draws it: canvas and a PNG (renderer, ms)',
  value: map.notebook_renderer_ms,
  baseline: `${map.renderer_ms} in the panel (SVG, no PNG)`,
  ratio: round(map.renderer_ms / map.notebook_renderer_ms),
  goal: 'report',
  met: true,
});
rows.push({
  benchmark: 'jupyter: a grid selection written into the drawn map (ms, renderer)',
  value: map.select_ms,
  baseline: `${map.drawn.toLocaleString('en-US')} points encoded again`,
  ratio: '',
  goal: 'report',
  met: true,
});

const py = await benchPython();
results.python_api = py;
const legacyNote = (v) =>
  py.legacy
    ? `${v} (the Python API of ${py.legacy_commit}, own transport and cache)`
    : 'not measured (history not cloned)';
rows.push({
  benchmark: `python: warm cached hub.queue(...) of ${py.engine.rows} rows (ms, median)`,
  value: py.engine.warm_ms,
  baseline: legacyNote(py.legacy?.warm_ms),
  ratio: py.legacy ? round(py.engine.warm_ms / py.legacy.warm_ms) : '',
  goal: 'no slower than before',
  met: py.goals.warm_not_slower !== false,
});
rows.push({
  benchmark: 'python: fresh interpreter, Client() + first call from the cache (ms, engine start included)',
  value: py.engine.first_call_ms,
  baseline: legacyNote(py.legacy?.first_call_ms),
  ratio: py.legacy ? round(py.engine.first_call_ms / py.legacy.first_call_ms) : '',
  goal: '<1000 ms',
  met: py.goals.first_call_under_1s,
});
rows.push({
  benchmark: 'python: fresh interpreter to first answer (cached), with V8 compile cache (ms)',
  value: py.engine.first_call_ms,
  baseline: `${py.engine.first_call_no_compile_cache_ms} with the compile cache off (DCHUB_COMPILE_CACHE=0)`,
  ratio: round(py.engine.first_call_ms / py.engine.first_call_no_compile_cache_ms),
  goal: '<=150 ms',
  met: py.goals.first_call_within_150ms,
});
const rssRow = (what, mb, before, goal, met) => ({
  benchmark: `python: engine resident memory after ${what} (MB)`,
  value: mb,
  baseline: `${before} MB as issue 27 measured it (its own workload, not this run)`,
  ratio: round(mb / before),
  goal: `<=${goal} MB`,
  met: met === true,
});
rows.push(
  rssRow(
    'one call that draws nothing (from the cache)',
    py.engine.engine_rss_first_call_mb,
    94,
    80,
    py.goals.rss_first_call_within_80mb,
  ),
  rssRow(
    '1,000 calls (20 queries, the rest cached)',
    py.engine.engine_rss_after_1000_calls_mb,
    132,
    120,
    py.goals.rss_1000_calls_within_120mb,
  ),
);
rows.push({
  benchmark: 'python: the same, whole process (interpreter, imports, call; ms)',
  value: py.engine.process_wall_ms,
  baseline: legacyNote(py.legacy?.process_wall_ms),
  ratio: py.legacy ? round(py.engine.process_wall_ms / py.legacy.process_wall_ms) : '',
  goal: 'report',
  met: true,
});

rows.push({
  benchmark: "python: engine resident memory after a first call that goes to the service (MB; Node's fetch loaded)",
  value: py.engine.engine_rss_first_network_call_mb,
  baseline: `${py.engine.engine_rss_first_call_mb} (the same call from the cache)`,
  ratio: round(py.engine.engine_rss_first_network_call_mb / py.engine.engine_rss_first_call_mb),
  goal: 'report',
  met: true,
});
console.table(rows);
mkdirSync('artifacts', { recursive: true });
writeFileSync('artifacts/bench.json', JSON.stringify({ when: new Date().toISOString(), results }, null, 2));
console.log('written: artifacts/bench.json');
