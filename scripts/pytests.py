"""Runs the Python unit tests (the JupyterLab server extension) and writes a JSON summary."""
import json
import sys
import unittest

suite = unittest.defaultTestLoader.discover("jupyter-extension/test", pattern="test_*.py", top_level_dir="jupyter-extension/test")
result = unittest.TextTestRunner(verbosity=2).run(suite)
failed = len(result.failures) + len(result.errors)
summary = {"numPassedTests": result.testsRun - failed - len(result.skipped), "numFailedTests": failed, "numPendingTests": len(result.skipped)}
with open(sys.argv[1], "w") as f:
    json.dump(summary, f)
sys.exit(1 if failed or result.testsRun == 0 else 0)
