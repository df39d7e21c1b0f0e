"""HTTP for the Python API: httpx with core's retry rules, redirects by hand, typed errors.

* Retries (GET only, like core's ky settings): up to ``retries`` more attempts on a network
  failure or a 408/429/500/502/503/504, with exponential backoff (0.3 s doubling, at most 8 s,
  80-120 % jitter). A ``Retry-After`` is honoured when it is short (≤ 5 s); a longer one, or a
  spent daily cap, is answered at once (a typed error with the reset time) instead of hanging.
* Redirects are followed by hand (at most 5): the ``X-API-Key`` header goes to the configured
  service's origin only; a hop to another origin is made without the key.
* The key is never put in a URL, a log line or a message; anything the service echoes is redacted.
"""

from __future__ import annotations

import json
import logging
import random
import time
from typing import Any
from urllib.parse import urljoin, urlsplit

import httpx

from .errors import DchubError, NetworkError, SchemaDriftError, error_from_response

log = logging.getLogger("dchub")

RETRY_STATUSES = frozenset({408, 429, 500, 502, 503, 504})
RETRY_AFTER_STATUSES = frozenset({413, 429, 503})
MAX_RETRY_AFTER_S = 5.0
BACKOFF_LIMIT_S = 8.0
MAX_REDIRECTS = 5
DAILY_CAP_ERRORS = frozenset({"daily_limit_reached", "daily_cap_exceeded"})


class Secret:
    """Holds the API key; its repr and str never show it."""

    __slots__ = ("_value",)

    def __init__(self, value: str):
        self._value = value

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "<secret>"

    __str__ = __repr__

    def __reduce__(self):  # never pickled along with a Client
        raise TypeError("the DC Hub API key is not picklable")


def origin(url: str) -> tuple[str, str, int | None]:
    u = urlsplit(url)
    port = u.port or {"http": 80, "https": 443}.get(u.scheme)
    return (u.scheme, (u.hostname or "").lower(), port)


def redact(value: Any, secret: str | None) -> Any:
    """``value`` with every occurrence of ``secret`` replaced (strings, dicts and lists, deeply)."""
    if not secret:
        return value
    if isinstance(value, str):
        return value.replace(secret, "[redacted]")
    if isinstance(value, dict):
        return {redact(k, secret): redact(v, secret) for k, v in value.items()}
    if isinstance(value, list):
        return [redact(v, secret) for v in value]
    return value


def parse_json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return _MALFORMED


_MALFORMED = object()


class Transport:
    """Sends requests to one service root; knows the key but never shows it."""

    def __init__(self, base_url: str, api_key: Secret | None, *, timeout: float, retries: int,
                 http: httpx.Client | None = None, sleep=time.sleep):
        self.base_url = base_url
        self._key = api_key
        self.retries = max(0, int(retries))
        self._http = http or httpx.Client(timeout=timeout, follow_redirects=False, headers={"User-Agent": "dchub-python"})
        self._sleep = sleep
        self.requests_sent = 0

    def close(self) -> None:
        self._http.close()

    def _headers_for(self, url: str, extra: dict[str, str] | None) -> dict[str, str]:
        headers = {"Accept": "application/json", **(extra or {})}
        if self._key is not None and origin(url) == origin(self.base_url):
            headers["X-API-Key"] = self._key.reveal()
        return headers

    def _once(self, method: str, url: str, params, body: bytes | None, headers: dict[str, str] | None) -> httpx.Response:
        """One request with redirects followed by hand (the key stays with the service's origin)."""
        for _hop in range(MAX_REDIRECTS + 1):
            h = self._headers_for(url, headers)
            if body is not None:
                h["Content-Type"] = "application/json"
            self.requests_sent += 1
            response = self._http.request(method, url, params=params, content=body, headers=h)
            log.debug("%s %s -> %s", method, urlsplit(str(response.request.url)).path, response.status_code)
            location = response.headers.get("location")
            if response.status_code not in (301, 302, 303, 307, 308) or not location:
                return response
            url = urljoin(str(response.request.url), location)
            params = None  # the Location carries its own query
            if response.status_code == 303 or (response.status_code in (301, 302) and method == "POST"):
                method, body = "GET", None
        raise NetworkError(f"more than {MAX_REDIRECTS} redirects from {self.public_url(url)}")

    def public_url(self, url: str) -> str:
        u = urlsplit(url)
        return f"{u.scheme}://{u.hostname}{f':{u.port}' if u.port else ''}{u.path}"

    def send(self, method: str, path: str, *, params=None, json_body: str | None = None,
             headers: dict[str, str] | None = None) -> httpx.Response:
        url = self.base_url + path.lstrip("/")
        body = json_body.encode("utf-8") if json_body is not None else None
        attempts = self.retries + 1 if method == "GET" else 1
        for attempt in range(attempts):
            last = attempt == attempts - 1
            try:
                response = self._once(method, url, params, body, headers)
            except httpx.TimeoutException as err:
                if last:
                    raise NetworkError(f"{path}: timed out", timeout=True) from None
                log.debug("%s %s: %s, retrying", method, path, type(err).__name__)
                self._sleep(self._backoff(attempt))
                continue
            except httpx.TransportError as err:
                if last:
                    if isinstance(err, httpx.RemoteProtocolError):
                        raise NetworkError(f"{path}: the connection dropped while reading the answer") from None
                    raise NetworkError(f"{path}: cannot reach {self.public_url(self.base_url)} ({type(err).__name__})") from None
                log.debug("%s %s: %s, retrying", method, path, type(err).__name__)
                self._sleep(self._backoff(attempt))
                continue
            status = response.status_code
            if last or status not in RETRY_STATUSES:
                return response
            wait = self._backoff(attempt)
            if status == 429 and self._daily_cap(response):
                return response  # waiting cannot help before the reset
            if status in RETRY_AFTER_STATUSES and "retry-after" in response.headers:
                try:
                    after = float(response.headers["retry-after"])
                except ValueError:
                    after = wait
                if after > MAX_RETRY_AFTER_S:
                    return response
                wait = max(0.0, after)
            log.debug("%s %s -> %s, retrying in %.2f s", method, path, status, wait)
            self._sleep(wait)
        raise AssertionError("unreachable")

    @staticmethod
    def _daily_cap(response: httpx.Response) -> bool:
        try:
            body = response.json()
        except ValueError:
            return False
        return isinstance(body, dict) and body.get("error") in DAILY_CAP_ERRORS

    @staticmethod
    def _backoff(attempt: int) -> float:
        delay = min(BACKOFF_LIMIT_S, 0.3 * 2**attempt)
        return delay * (0.8 + random.random() * 0.4)

    def decode(self, path: str, response: httpx.Response) -> Any:
        """The JSON answer, or the typed error it stands for (also for errors reported with a 200)."""
        secret = self._key.reveal() if self._key else None
        text = response.text
        status = response.status_code
        parsed = parse_json(text)
        if status >= 400:
            raise self.scrub(error_from_response(status, text if parsed is _MALFORMED else parsed, response.headers))
        if parsed is _MALFORMED:
            what = "an HTML page" if "<html" in text[:500].lower() else ("malformed JSON" if text.strip() else "an empty body")
            raise SchemaDriftError("", f"{path} answered {what}")
        if isinstance(parsed, dict) and (
            parsed.get("_entity") == "error" or parsed.get("ok") is False
            or (parsed.get("success") is False and isinstance(parsed.get("error"), str))
        ):
            raise self.scrub(error_from_response(500, parsed, response.headers))
        return redact(parsed, secret)

    def scrub(self, err: DchubError) -> DchubError:
        """Removes the key from an error's message and body, should the service ever echo it."""
        secret = self._key.reveal() if self._key else None
        if secret:
            err.args = tuple(redact(a, secret) for a in err.args)
            err.body = redact(err.body, secret)
        return err
