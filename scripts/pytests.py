"""Runs the Python tests of both packages (python/test: the ``dchub`` Python API against a sandbox,
its contract with the dchub CLI; the ``dchub-jupyterlab`` server extension's relay) with pytest,
once per sandbox profile (spec, then real: the real service's shapes), and writes one JSON summary
for summarize-tests.

    python scripts/pytests.py artifacts/python.json            # both profiles
    python scripts/pytests.py out.json --profile real          # one profile
"""
import json
import os
import subprocess
import sys
import tempfile

PROFILES = ("spec", "real")


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


def write(path, passed, failed, skipped):
    with open(path, "w") as f:
        json.dump({"numPassedTests": passed, "numFailedTests": failed, "numPendingTests": skipped}, f)


def run_one(out, profile):
    import pytest

    os.environ["DCHUB_TEST_PROFILE"] = profile  # read by the tests' conftest (the sandbox's profile)
    counter = Counter()
    code = pytest.main(["-q", "-p", "no:cacheprovider", "python/test"], plugins=[counter])
    write(out, counter.passed, counter.failed, counter.skipped)
    print(f"python ({profile} profile): {counter.passed} passed, {counter.failed} failed, {counter.skipped} skipped")
    return 1 if code != 0 or counter.passed == 0 else 0


def main(argv):
    out = argv[1]
    if "--profile" in argv:
        return run_one(out, argv[argv.index("--profile") + 1])
    totals, status = [0, 0, 0], 0
    for profile in PROFILES:
        # One process per profile: the tests read the profile when they are first imported.
        with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as tmp:
            part = tmp.name
        try:
            status |= subprocess.call([sys.executable, __file__, part, "--profile", profile])
            with open(part) as f:
                s = json.load(f)
            for i, k in enumerate(("numPassedTests", "numFailedTests", "numPendingTests")):
                totals[i] += s[k]
        except (OSError, ValueError):
            totals[1] += 1  # the run did not report: count it as a failure
            status = 1
        finally:
            if os.path.exists(part):
                os.unlink(part)
    write(out, *totals)
    print(f"python (both profiles): {totals[0]} passed, {totals[1]} failed, {totals[2]} skipped")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
