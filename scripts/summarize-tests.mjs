// Sums Vitest and Playwright JSON reports into one "N passed, N failed" line.
import { existsSync, readFileSync } from 'node:fs';

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
  if ('numPassedTests' in report) {
    // Vitest (Jest-compatible JSON)
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + (report.numTodoTests ?? 0);
    if (report.numFailedTestSuites && !report.numFailedTests) failed += report.numFailedTestSuites;
  } else if (report.stats) {
    // Playwright
    passed += report.stats.expected + (report.stats.flaky ?? 0);
    failed += report.stats.unexpected;
    skipped += report.stats.skipped;
    if ((report.errors ?? []).length && !report.stats.unexpected) failed += report.errors.length;
  }
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed ? 1 : 0);
