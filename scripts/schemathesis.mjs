// Runs schemathesis (PyPI, pinned in sandbox/test/schemathesis/requirements.txt, installed into .venv by
// scripts/setup.sh; SCHEMATHESIS_BIN names another install) against the sandbox's /openapi.json: schemathesis'
// default checks (every one), every operation, a fixed seed and nothing carried over from earlier runs, for the spec
// profile and the real profile, each on a sandbox started here (port 0, daily limits off). A run reads
// sandbox/test/schemathesis/<run>.toml when there is one (what JSON Schema cannot say, with the reason); without one
// it runs under schemathesis' default configuration.
// Writes a JSON summary the final "N passed, N failed" line counts: one test per operation and profile
// (plus schemathesis' stateful phase), failed when schemathesis reported a failure or error for it.
//
//   node scripts/schemathesis.mjs artifacts/schemathesis.json [--max-examples N]
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(process.argv[2] ?? 'artifacts/schemathesis.json');
const maxIdx = process.argv.indexOf('--max-examples');
const maxExamples = maxIdx > 0 ? Number(process.argv[maxIdx + 1]) : 25;
const SEED = '20261121';
const KEY = 'schemathesis-enterprise';
const bin = process.env.SCHEMATHESIS_BIN || join(root, '.venv/bin/schemathesis');
const reportDir = join(dirname(out), 'schemathesis');
mkdirSync(reportDir, { recursive: true });

const summary = { numPassedTests: 0, numFailedTests: 0, numPendingTests: 0, profiles: {} };
const write = () => writeFileSync(out, JSON.stringify(summary, null, 2));

if (!existsSync(bin)) {
  console.error(`schemathesis is not installed at ${bin}: run bash scripts/setup.sh`);
  summary.numFailedTests = 1;
  write();
  process.exit(1);
}

const { startSandbox } = await import(join(root, 'sandbox/dist/server.js'));

/** Per-operation outcomes from schemathesis' JUnit report (one <testcase> per operation). */
function readJunit(file) {
  const xml = readFileSync(file, 'utf8');
  const cases = [...xml.matchAll(/<testcase name="([^"]*)"[^>]*?(\/>|>([\s\S]*?)<\/testcase>)/g)];
  return cases.map(([, name, , inner = '']) => ({
    name: name
      .replace(/&amp;/g, '&')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"'),
    failed: /<(failure|error)\b/.test(inner),
    skipped: /<skipped\b/.test(inner),
  }));
}

const run = (args) =>
  new Promise((done) => {
    const child = spawn(bin, args, { cwd: root, stdio: 'inherit', env: { ...process.env, NO_COLOR: '1' } });
    child.on('close', (code) => done(code ?? 1));
  });

// Each profile with an Enterprise key (every answer in full); the real profile keyless too (its walls and teases).
const RUNS = [
  { name: 'spec', profile: 'spec', keyed: true },
  { name: 'real', profile: 'real', keyed: true },
  { name: 'real-keyless', profile: 'real', keyed: false },
];

for (const { name, profile, keyed } of RUNS) {
  const sb = await startSandbox({
    port: 0,
    seed: 'schemathesis',
    now: '2026-11-21T12:00:00Z',
    keys: `enterprise=${KEY}`,
    limits: false,
    profile,
  });
  const junit = join(reportDir, `${name}.xml`);
  const config = join(root, `sandbox/test/schemathesis/${name}.toml`);
  const allowances = existsSync(config);
  console.log(
    `== schemathesis: ${name} at ${sb.url} (seed ${SEED}, ${maxExamples} examples per operation, ` +
      `${allowances ? `allowances in ${name}.toml` : 'default configuration'}) ==`,
  );
  const started = Date.now();
  const code = await run([
    ...(allowances ? ['--config-file', config] : []),
    'run',
    `${sb.url}/openapi.json`,
    '--seed',
    SEED,
    // The seed alone decides what is generated: no example database replaying an earlier run's failures.
    '--generation-database',
    'none',
    '--max-examples',
    String(maxExamples),
    '--workers',
    '1',
    ...(keyed ? ['--header', `X-API-Key: ${KEY}`] : []),
    '--report',
    'junit',
    '--report-junit-path',
    junit,
  ]);
  await sb.close();
  const cases = existsSync(junit) ? readJunit(junit) : [];
  const failed = cases.filter((c) => c.failed).map((c) => c.name);
  const skipped = cases.filter((c) => c.skipped && !c.failed).length;
  const passed = cases.length - failed.length - skipped;
  // A run that failed without naming an operation (it could not start, say) counts as one failure.
  const unexplained = code !== 0 && failed.length === 0 ? 1 : 0;
  summary.numPassedTests += passed;
  summary.numFailedTests += failed.length + unexplained + (cases.length ? 0 : 1);
  summary.numPendingTests += skipped;
  summary.profiles[name] = {
    configuration: allowances ? `sandbox/test/schemathesis/${name}.toml` : 'default',
    operations: cases.length,
    passed,
    failed,
    skipped,
    exitCode: code,
    seconds: Math.round((Date.now() - started) / 1000),
  };
  console.log(
    `schemathesis ${name}: ${passed} operations passed, ${failed.length} failed${failed.length ? ` (${failed.join(', ')})` : ''}, exit ${code}`,
  );
}
write();
process.exit(summary.numFailedTests ? 1 : 0);
