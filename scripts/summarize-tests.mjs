// Sums Vitest and Playwright JSON reports (Vitest on Node 20 and on Node 22; the lint and format checks, pytest, the
// wheel check, the release checks and schemathesis in the same Jest-compatible shape; Galata) into one "N passed, N
// failed" line, after one line per report.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

let passed = 0;
let failed = 0;
let skipped = 0;
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
  } else if (report.stats) {
    // Playwright
    p = report.stats.expected + (report.stats.flaky ?? 0);
    f = report.stats.unexpected;
    s = report.stats.skipped;
    if ((report.errors ?? []).length && !report.stats.unexpected) f += report.errors.length;
  }
  console.log(`  ${path.basename(file)}: ${p} passed, ${f} failed${s ? `, ${s} skipped` : ''}`);
  passed += p;
  failed += f;
  skipped += s;
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed ? 1 : 0);
