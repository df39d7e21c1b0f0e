"""The API key never shows in what the engine reports: not in an exception message, a log line
(logger ``dchub``) or the engine's stderr, even when the key is malformed (a line break, spaces
around it, a character beyond Latin-1, a quote JSON escapes) and even when something in Node
prints the requests the engine reads."""

from __future__ import annotations

import json
import logging
import re
import secrets
import time

import pytest

from conftest import KEYS


def malformed_keys() -> list[str]:
    """Made-up keys, built at run time, of the shapes a paste can give."""
    part = lambda: secrets.token_hex(8)  # noqa: E731
    return [
        f"dch_live_{part()}\n{part()}",
        f"  dch_live_{part()}\r\n{part()}  ",
        f"dch_live_{part()}é€{part()}",
        f"dch_live_{part()}\t{part()}",
        f'dch_live_{part()}"\\{part()}',
    ]


def fragments(key: str) -> list[str]:
    """What would betray the key: itself, trimmed, JSON-escaped, and every run of 8 hex digits."""
    out = {key, key.strip(), json.dumps(key)[1:-1], json.dumps(key, ensure_ascii=False)[1:-1]}
    out |= {
        w
        for w in key.replace('"', " ").replace("\\", " ").replace("é€", " ").split()
        if len(w) >= 8
    }
    return sorted(out)


def assert_hidden(key: str, *texts: str) -> None:
    for text in texts:
        for piece in fragments(key):
            assert piece not in text, f"{piece!r} of the key shows in {text[:300]!r}"


@pytest.mark.parametrize(
    "key", malformed_keys(), ids=["newline", "spaces-crlf", "non-latin1", "tab", "quote-backslash"]
)
def test_a_malformed_key_never_shows(sandbox, cache_dir, caplog, key):
    """A key no HTTP header can carry is refused before any call (core's rule); one that a header
    carries but the service does not know is the service's 401. Neither shows the key."""
    from dchub import AuthError, Client, DchubError, ValidationError
    from dchub.api.engine import ENGINE

    caplog.set_level(logging.DEBUG, logger="dchub")
    seen: list[str] = []
    with pytest.raises(DchubError) as info:
        hub = Client(base_url=sandbox.url, api_key=key, cache_dir=cache_dir)
        seen.append(repr(hub))
        hub.queue(iso="PJM", limit=5)
    err = info.value
    if '"' in key:
        assert isinstance(err, AuthError) and err.status == 401, repr(err)
    else:
        assert isinstance(err, ValidationError) and err.param == "api_key", repr(err)
    seen += [str(err), repr(err), repr(err.args), json.dumps(err.body, default=str)]
    assert_hidden(key, *seen, caplog.text, "\n".join(ENGINE.stderr_tail))
    for p in cache_dir.rglob("*"):
        if p.is_file():
            assert_hidden(key, p.read_text("utf-8", "replace"))


#: Loaded into the engine with NODE_OPTIONS: prints every request line the engine reads to stderr
#: (as a debugging hook or a crash report might), and makes a notebook call end the process.
ECHO_AND_CRASH = r"""
process.stdin.on('data', (chunk) => {
  process.stderr.write(chunk);
  if (/"method":\s*"call"/.test(String(chunk))) process.exit(3);
});
"""


def test_what_the_engine_prints_never_carries_the_key(
    sandbox, cache_dir, caplog, monkeypatch, tmp_path
):
    """Even when Node writes the key to stderr (the `open` request carries it), the stderr tail,
    the debug log and the error naming the crash show it redacted."""
    from dchub import Client, DchubError
    from dchub.api.engine import ENGINE

    hook = tmp_path / "echo.cjs"
    hook.write_text(ECHO_AND_CRASH)
    caplog.set_level(logging.DEBUG, logger="dchub")
    ENGINE.stop()
    monkeypatch.setenv("NODE_OPTIONS", f"--require {hook}")
    malformed = f"dch_live_{secrets.token_hex(8)}€\n{secrets.token_hex(8)}"
    try:
        for key in (KEYS["pro"], malformed):
            with pytest.raises(DchubError) as info:
                Client(base_url=sandbox.url, api_key=key, cache_dir=cache_dir).news(limit=1)
            deadline = time.monotonic() + 5  # stderr is read by a thread of its own
            while "[redacted]" not in "\n".join(ENGINE.stderr_tail) and time.monotonic() < deadline:
                time.sleep(0.05)
            tail = "\n".join(ENGINE.stderr_tail)
            # The hook ran: the engine printed the `open` request, redacted; with the good key the
            # call ended the engine twice and the error says how, with that tail.
            assert re.search(r'"method":\s*"open"', tail) and "[redacted]" in tail, tail
            if key == malformed:
                assert getattr(info.value, "param", None) == "api_key", repr(info.value)
            else:
                assert "exited with code 3" in str(info.value) and "[redacted]" in str(info.value)
            assert_hidden(key, str(info.value), repr(info.value), tail, caplog.text)
    finally:
        monkeypatch.delenv("NODE_OPTIONS")
        ENGINE.stop()


def test_a_refused_key_is_in_no_frame_of_its_traceback(sandbox, cache_dir):
    """IPython's verbose tracebacks, rich and Sentry print every frame's locals: when Client()
    refuses a malformed key, no frame of the library holds it as text (nor in a container), and
    the traceback with its locals (which calls repr() of the half-made Client) can be made."""
    import traceback

    from dchub import Client, DchubError

    key = malformed_keys()[0]
    try:
        Client(base_url=sandbox.url, api_key=key, cache_dir=cache_dir)
    except DchubError as err:
        error = err
    else:
        pytest.fail("the malformed key was accepted")

    def texts(value: object, depth: int = 0) -> list[str]:
        if depth > 4:
            return []
        if isinstance(value, (str, bytes)):
            return [value.decode("utf-8", "replace") if isinstance(value, bytes) else value]
        if isinstance(value, dict):
            return [t for k, v in value.items() for x in (k, v) for t in texts(x, depth + 1)]
        if isinstance(value, (list, tuple, set, frozenset)):
            return [t for x in value for t in texts(x, depth + 1)]
        return [repr(value)]  # what a traceback printer shows of an object

    tb = error.__traceback__.tb_next  # past this test's own frame, which holds the key it gave
    frames = 0
    while tb is not None:
        frames += 1
        assert_hidden(key, *texts(dict(tb.tb_frame.f_locals)))
        tb = tb.tb_next
    assert frames >= 2  # the refusal passed through the library's own frames
    traceback.TracebackException.from_exception(error, capture_locals=True)  # does not raise
    library = traceback.walk_tb(error.__traceback__.tb_next)
    rendered = "".join(traceback.StackSummary.extract(library, capture_locals=True).format())
    assert "Client(not connected)" in rendered
    assert_hidden(key, rendered)


def test_repr_of_a_client_whose_construction_failed_does_not_raise():
    from dchub import Client

    hub = Client.__new__(Client)
    assert repr(hub) == "Client(not connected)"
