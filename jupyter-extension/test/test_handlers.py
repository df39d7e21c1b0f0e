"""Unit tests of the relay's pure parts (stdlib unittest; run with the project venv):

    .venv/bin/python -m unittest discover -s jupyter-extension/test -p 'test_*.py'

The relay end to end (auth, key added, headers, key never returned) is covered by the Galata
suite in ui-tests/, which runs the real server extension against the sandbox.
"""

import os
import unittest
from unittest import mock

from dchub_jupyterlab import _jupyter_server_extension_points
from dchub_jupyterlab.handlers import DEFAULT_BASE_URL, api_key, is_allowed_path, service_base_url


class AllowedPathTest(unittest.TestCase):
    def test_api_paths_mcp_and_openapi_are_relayed(self):
        for path in (
            "api/v1/interconnection-queue/refined",
            "api/site-score",
            "api/v1/market-brief/all.csv",
            "api/v1/market-brief/northern-virginia",
            "api/v1/market-brief/caf%C3%A9",
            "mcp",
            "openapi.json",
        ):
            with self.subTest(path=path):
                self.assertTrue(is_allowed_path(path))

    def test_everything_else_is_refused(self):
        for path in (
            "",
            "api",
            "api/",
            "_sandbox/clock",
            "mcp/extra",
            "openapi.yaml",
            "api/../_sandbox/clock",
            "api/%2e%2e/_sandbox/clock",
            "api/v1/./x",
            "api//v1",
            "api/v1%2F..%2F..%2Fetc",
            "api/v1/x%3Fa=b",
            "api/v1/x%23frag",
            "api/v1\\..\\x",
            "http://evil.example/api/x",
            "/api/v1/x",
        ):
            with self.subTest(path=path):
                self.assertFalse(is_allowed_path(path))


class EnvironmentTest(unittest.TestCase):
    def test_base_url_defaults_and_is_normalized(self):
        with mock.patch.dict(os.environ, {}, clear=True):
            self.assertEqual(service_base_url(), DEFAULT_BASE_URL + "/")
        with mock.patch.dict(os.environ, {"DCHUB_BASE_URL": " http://127.0.0.1:8787/// "}):
            self.assertEqual(service_base_url(), "http://127.0.0.1:8787/")

    def test_blank_key_counts_as_none(self):
        with mock.patch.dict(os.environ, {"DCHUB_API_KEY": "  "}):
            self.assertIsNone(api_key())
        with mock.patch.dict(os.environ, {"DCHUB_API_KEY": " k-1 "}):
            self.assertEqual(api_key(), "k-1")


class RegistrationTest(unittest.TestCase):
    def test_server_extension_point(self):
        self.assertEqual(_jupyter_server_extension_points(), [{"module": "dchub_jupyterlab"}])


if __name__ == "__main__":
    unittest.main()
