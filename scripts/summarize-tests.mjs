// Sums Vitest and Playwright JSON reports (Vitest on Node 20 and on Node 22; the lint and format checks, pytest, the
// wheel check, the release checks and schemathesis in the same Jest-compatible shape; Galata) into one "N passed, N
// failed" line, after one line per report and the names of the failed tests (at most 12, so that the tail of a CI log
// says what failed).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';

let passed = 0;
let failed = 0;
let skipped = 0;
/** "file › test: first line of its failure" for each failed test of every report. */
const failures = [];
const firstLine = (text) =>
  String(text ?? '')
    .split('\n')
    .find((l) => l.trim()) ?? '';
const short = (text) => stripVTControlCharacters(firstLine(text)).slice(0, 160);
function vitestFailures(report) {
  for (const file of report.testResults ?? []) {
    const name = path.relative(process.cwd(), file.name ?? '');
    for (const t of file.assertionResults ?? []) {
      if (t.status === 'failed') failures.push(`${name} › ${t.fullName}: ${short(t.failureMessages?.[0])}`);
    }
    if (file.status === 'failed' && !(file.assertionResults ?? []).some((t) => t.status === 'failed')) {
      failures.push(`${name}: ${short(file.message)}`);
    }
  }
}
function playwrightFailures(suite, trail = []) {
  for (const spec of suite.specs ?? []) {
    for (const t of spec.tests ?? []) {
      if (t.status === 'unexpected') {
        const err = t.results?.at(-1)?.error?.message;
        failures.push(`${[...trail, spec.title].join(' › ')}: ${short(err)}`);
      }
    }
  }
  for (const child of suite.suites ?? []) playwrightFailures(child, [...trail, child.title]);
}
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    console.log(`(no report at ${file}: counted as one failure)`);
    failed++;
    continue;
  }
  let report;
  try {
    report = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    console.log(`(unreadable report ${file}: counted as one failure)`);
    failed++;
    continue;
  }
  let p = 0;
  let f = 0;
  let s = 0;
  if ('numPassedTests' in report) {
    // Vitest (Jest-compatible JSON)
    p = report.numPassedTests;
    f = report.numFailedTests;
    s = report.numPendingTests + (report.numTodoTests ?? 0);
    if (report.numFailedTestSuites && !report.numFailedTests) f += report.numFailedTestSuites;
    vitestFailures(report);
  } else if (report.stats) {
    // Playwright
    p = report.stats.expected + (report.stats.flaky ?? 0);
    f = report.stats.unexpected;
    s = report.stats.skipped;
    if ((report.errors ?? []).length && !report.stats.unexpected) f += report.errors.length;
    for (const suite of report.suites ?? []) playwrightFailures(suite, [suite.title]);
  }
  console.log(`  ${path.basename(file)}: ${p} passed, ${f} failed${s ? `, ${s} skipped` : ''}`);
  passed += p;
  failed += f;
  skipped += s;
}
if (failures.length) {
  console.log(`  failed (${failures.length}):`);
  for (const line of failures.slice(0, 12)) console.log(`    ${line}`);
  if (failures.length > 12) console.log(`    … and ${failures.length - 12} more (artifacts/*.json)`);
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed ? 1 : 0);
