"""The call path every resource takes: cache lookup, allowance, request, decoding, stale fallback.

The same steps as core's ``DchubClient.fetchJson`` (core/src/client.ts), over the directory the
``dchub`` CLI uses: a fresh cached answer is served without a request; otherwise a call is reserved
against the daily ledger, sent (with ``If-None-Match`` when an ETag is known), and the answer
stored; when the service fails or the allowance is spent, the last good answer is served marked
stale, with its age. Gated previews are stored as previews, under this caller only.
"""

from __future__ import annotations

import os
import warnings
from typing import Any
from urllib.parse import quote, urlsplit

import platformdirs

from .errors import (AssumedAllowanceWarning, DchubError, NetworkError, QuotaSpentError, RateLimitError,
                     SchemaDriftError, ServerError, StaleAnswerWarning, ValidationError)
from .jsfmt import cyrb53, form_encode, js_json
from .ledger import QuotaLedger
from .store import DirectoryStore, ResponseCache, StoredAnswer, cache_key, kept_headers, lifetime_for, now_ms
from .transport import DAILY_CAP_ERRORS, Secret, Transport, parse_json, _MALFORMED

DEFAULT_BASE_URL = "https://dchub.cloud"


def default_cache_dir() -> str:
    """The platform's user cache directory for ``dchub`` (``~/.cache/dchub`` on Linux)."""
    return platformdirs.user_cache_dir("dchub", appauthor=False)


def normalize_base_url(url: str) -> str:
    u = urlsplit(url.strip())
    if u.scheme not in ("http", "https") or not u.hostname:
        raise ValidationError("base_url", f"must be an http or https URL, got {url.split('@')[-1]!r}")
    if u.username or u.password:
        raise ValidationError("base_url", "must not contain credentials (user:password@); pass api_key instead")
    host = u.hostname.lower()
    default = {"http": 80, "https": 443}[u.scheme]
    netloc = host if (u.port in (None, default)) else f"{host}:{u.port}"
    if ":" in host and not host.startswith("["):
        netloc = f"[{host}]" + (f":{u.port}" if u.port not in (None, default) else "")
    # The path as a WHATWG URL spells it (percent-encoded), so the service in cache keys is core's.
    path = quote(u.path or "/", safe="/%:@!$&'()*+,;=-._~").rstrip("/") + "/"
    return f"{u.scheme}://{netloc}{path}"


def ledger_host(base_url: str) -> str:
    """``new URL(base).host``: host, and the port unless it is the scheme's default."""
    return base_url.split("://", 1)[1].split("/", 1)[0]


def query_of(params: list[tuple[str, str]] | None) -> str:
    """The canonical query of a cache key: pairs sorted by name (UTF-16, as JavaScript sorts), form-encoded."""
    return form_encode(sorted(params or [], key=lambda kv: kv[0].encode("utf-16-be")))


class Session:
    """Owns the transport, the cache and the ledger of one caller at one service."""

    def __init__(self, *, base_url: str | None, api_key: str | None, cache_dir: str | None, cache: bool,
                 timeout: float, retries: int, tier: str | None, now=now_ms, http=None, sleep=None):
        self.base_url = normalize_base_url(base_url or os.environ.get("DCHUB_BASE_URL") or DEFAULT_BASE_URL)
        key = (api_key if api_key is not None else os.environ.get("DCHUB_API_KEY", "")).strip()
        self.api_key = Secret(key) if key else None
        self.caller_id = f"k{cyrb53(key)}" if key else "anon"
        self.cache_dir = str(cache_dir or os.environ.get("DCHUB_CACHE_DIR") or default_cache_dir())
        self.now = now
        # Like the CLI's --no-cache: answers are neither read nor written, the ledger still is.
        self.store = DirectoryStore(self.cache_dir)
        self.cache = ResponseCache(self.store) if cache else None
        self.ledger = QuotaLedger(self.store, f"{ledger_host(self.base_url)}:{self.caller_id}",
                                  tier=tier or ("free" if key else "anonymous"),
                                  # A tier the caller states is taken as known (as core's client does);
                                  # otherwise the allowance is assumed until the service states it.
                                  confirmed=tier is not None, now=now)
        kwargs = {"http": http} if http is not None else {}
        if sleep is not None:
            kwargs["sleep"] = sleep
        self.http = Transport(self.base_url, self.api_key, timeout=timeout, retries=retries, **kwargs)

    # ------------------------------------------------------------ keys (core/src/client.ts #key)

    def key_for(self, method: str, path: str, params: list[tuple[str, str]] | None = None, body: Any = None) -> str:
        if body is not None:
            return cache_key(self.caller_id, self.base_url, "POST", f"{path}#{cyrb53(js_json(body))}")
        return cache_key(self.caller_id, self.base_url, method, f"{path}{'?' + query_of(params) if params else ''}")

    # ------------------------------------------------------------ the call path

    def cached(self, path: str, params: list[tuple[str, str]] | None = None) -> tuple[Any, dict[str, Any]] | None:
        """The cached answer to a GET (fresh or stale, ``meta["stale"]`` says), without sending anything."""
        if self.cache is None:
            return None
        stored = self.cache.load(self.key_for("GET", path, params))
        value = parse_json(stored.text) if stored is not None else _MALFORMED
        if value is _MALFORMED:
            return None
        return value, self._meta(stored, from_cache=True, stale=stored.expires_at <= self.now())

    def fetch(self, path: str, params: list[tuple[str, str]] | None = None, *, body: Any = None,
              use_cache: bool = True, refresh: bool = False) -> tuple[Any, dict[str, Any]]:
        method = "GET" if body is None else "POST"
        key = self.key_for(method, path, params, body)
        cache = self.cache if use_cache else None
        stored, stored_value = None, None
        if cache is not None:
            stored = cache.load(key)
            if stored is not None:
                stored_value = parse_json(stored.text)
                if stored_value is _MALFORMED:
                    stored, stored_value = None, None  # what was stored no longer reads: ignore it
        now = self.now()
        if stored is not None and stored.expires_at > now and not refresh:
            cache.hits += 1
            return stored_value, self._meta(stored, from_cache=True, stale=False)
        if cache is not None:
            cache.misses += 1

        def stale(reason: str):
            cache.stale_served += 1
            meta = self._meta(stored, from_cache=True, stale=True, reason=reason)
            warnings.warn(f"DC Hub: {path} served from the cache ({meta['age_seconds'] / 60:.0f} min old): {reason}",
                          StaleAnswerWarning, stacklevel=4)
            return stored_value, meta

        granted, allowance_warning = self.ledger.reserve()
        if not granted:
            if stored is not None:
                return stale("daily limit reached")
            snap = self.ledger.snapshot()
            raise QuotaSpentError(snap["limit"], snap["resets_at"])
        if allowance_warning:
            warnings.warn(f"DC Hub: {allowance_warning}", AssumedAllowanceWarning, stacklevel=4)
        notes = [allowance_warning] if allowance_warning else []
        headers = {"If-None-Match": stored.etag} if stored is not None and stored.etag else None
        try:
            response = self.http.send(method, path, params=params, json_body=js_json(body) if body is not None else None,
                                      headers=headers)
            self.ledger.correct(response.headers)
            if response.status_code == 304 and stored is not None:
                at = self.now()
                refreshed = StoredAnswer(stored.text, at, at + lifetime_for(path, at, stored_value), stored.etag, stored.preview,
                                         stored.headers)
                cache.save(key, refreshed)
                return stored_value, self._meta(refreshed, from_cache=True, stale=False, warnings=notes)
            value = self.http.decode(path, response)
        except DchubError as err:
            self._settle(err)
            if stored is not None and isinstance(err, (NetworkError, ServerError, RateLimitError, SchemaDriftError)):
                return stale({NetworkError: "offline", RateLimitError: "rate limited"}.get(type(err), "service error"
                             if isinstance(err, ServerError) else "the answer did not read"))
            raise
        at = self.now()
        answer = StoredAnswer(response.text, at, at + lifetime_for(path, at, value), response.headers.get("etag"),
                              isinstance(value, dict) and value.get("_gated") is True, kept_headers(response.headers))
        if cache is not None and not self._holds_key(response.text):
            cache.save(key, answer)
        return value, self._meta(answer, from_cache=False, stale=False, warnings=notes)

    def _holds_key(self, text: str) -> bool:
        return self.api_key is not None and self.api_key.reveal() in text

    def _settle(self, err: DchubError) -> None:
        """After a failed call: give back a reservation that never reached the service; note a spent day."""
        if isinstance(err, NetworkError):
            self.ledger.release()
        elif isinstance(err, RateLimitError) and isinstance(err.body, dict) and err.body.get("error") in DAILY_CAP_ERRORS:
            self.ledger.exhaust()

    def _meta(self, answer: StoredAnswer, *, from_cache: bool, stale: bool, reason: str | None = None,
              warnings: list[str] | None = None) -> dict[str, Any]:
        meta = {"from_cache": from_cache, "stale": stale, "preview": answer.preview,
                "fetched_at": answer.stored_at, "age_seconds": max(0, self.now() - answer.stored_at) / 1000,
                "warnings": list(warnings or [])}
        if reason:
            meta["reason"] = reason
        return meta
