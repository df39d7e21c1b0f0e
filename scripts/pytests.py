"""Runs the Python tests (the Python API against a sandbox, its contract with the dchub CLI, the
JupyterLab server extension's relay) with pytest and writes a JSON summary for summarize-tests."""
import json
import sys

import pytest


class Counter:
    def __init__(self):
        self.passed = self.failed = self.skipped = 0

    def pytest_runtest_logreport(self, report):
        if type(report).__name__ == "SubtestReport":
            return  # a subtest is a check inside a test; the test itself is counted
        if report.when == "call" or (report.when == "setup" and report.outcome != "passed"):
            if report.passed:
                self.passed += 1
            elif report.skipped:
                self.skipped += 1
            else:
                self.failed += 1
        elif report.when == "teardown" and report.failed:
            self.failed += 1


counter = Counter()
code = pytest.main(["-q", "-p", "no:cacheprovider", "jupyter-extension/test"], plugins=[counter])
summary = {"numPassedTests": counter.passed, "numFailedTests": counter.failed, "numPendingTests": counter.skipped}
with open(sys.argv[1], "w") as f:
    json.dump(summary, f)
print(f"python: {counter.passed} passed, {counter.failed} failed, {counter.skipped} skipped")
sys.exit(1 if code != 0 or counter.passed == 0 else 0)
