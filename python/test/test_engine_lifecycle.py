"""The engine process (core in Node) lives and dies with the Python process that started it: it
never outlives it (``kill -9``, a kernel restart or kill), one killed between calls is started
again for the next (killed under a call: test_async.py), processes (and forked children) never
share one but do share the cache directory, and the API key never shows in what the engine
prints or logs."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from conftest import KEYS, PYTHONPATH

QUEUE = "/api/v1/interconnection-queue/refined"
POSIX_SIGNALS = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="POSIX signals")


def alive(pid: int) -> bool:
    """Whether a process runs (a zombie, ended but not yet reaped by its new parent, does not)."""
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    if stat.exists():
        try:
            return stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"
        except (OSError, IndexError):
            return False
    return True


def gone_within(pid: int, seconds: float = 10.0) -> bool:
    """A bounded wait for a process to end (not a speed test: the engine has seconds to notice)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not alive(pid):
            return True
        time.sleep(0.1)
    return False


def python_env(sandbox, cache_dir) -> dict[str, str]:
    """A user's Python process: the package on its path, DC Hub's settings in its environment."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DCHUB_")}
    env.update(
        {
            "PYTHONPATH": PYTHONPATH,
            "DCHUB_BASE_URL": sandbox.url,
            "DCHUB_API_KEY": KEYS["pro"],
            "DCHUB_CACHE_DIR": str(cache_dir),
        }
    )
    return env


#: A Python process that calls, reports its engine, then waits for a line on stdin (or its end).
CALLER = """
import json, sys
from dchub import Client
from dchub.api.engine import ENGINE
hub = Client()
df = hub.queue(iso="PJM", limit=5)
print(json.dumps({"engine": ENGINE.pid, "sent": hub.requests_sent, "ids": list(df["queue_id"]),
                  "from_cache": bool(df.attrs.get("from_cache"))}), flush=True)
sys.stdin.readline()
"""


def start_caller(sandbox, cache_dir) -> tuple[subprocess.Popen[str], dict]:
    proc = subprocess.Popen(
        [sys.executable, "-c", CALLER],
        env=python_env(sandbox, cache_dir),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line, f"the caller ended with {proc.wait(30)}"
    return proc, json.loads(line)


@POSIX_SIGNALS
def test_the_engine_ends_when_its_python_is_killed(sandbox, cache_dir):
    proc, report = start_caller(sandbox, cache_dir)
    engine = report["engine"]
    assert len(report["ids"]) == 5 and alive(engine) and engine != proc.pid
    proc.send_signal(signal.SIGKILL)
    assert proc.wait(10) == -signal.SIGKILL
    assert gone_within(engine), f"engine {engine} outlived its Python process"


def run_in_kernel(kc, code: str) -> str:
    """Runs code in a kernel: what it printed, and the name of an error it raised."""
    out: list[str] = []

    def hook(msg) -> None:
        if msg["msg_type"] == "stream":
            out.append(msg["content"]["text"])
        elif msg["msg_type"] == "error":
            out.append(msg["content"]["ename"])

    kc.execute_interactive(code, timeout=120, output_hook=hook)
    return "".join(out)


KERNEL_CALL = (
    "import os\nfrom dchub import Client\n"
    "from dchub.api.engine import ENGINE\n"
    "hub = Client()\nprint(len(hub.queue(iso='PJM', limit=5)), ENGINE.pid, os.getpid())"
)


@POSIX_SIGNALS
def test_no_engine_outlives_a_kernel_restarted_or_killed(sandbox, cache_dir):
    from jupyter_client.manager import start_new_kernel

    km, kc = start_new_kernel(kernel_name="python3", env=python_env(sandbox, cache_dir))
    try:
        rows, first, kernel = map(int, run_in_kernel(kc, KERNEL_CALL).split())
        assert rows == 5 and alive(first)
        km.restart_kernel(now=True)
        kc.wait_for_ready(timeout=60)
        assert gone_within(first), "the engine outlived its kernel's restart"
        rows, second, restarted = map(int, run_in_kernel(kc, KERNEL_CALL).split())
        assert rows == 5 and second != first and restarted != kernel and alive(second)
        os.kill(restarted, signal.SIGKILL)  # the kernel alone, not its process group
        assert gone_within(second), "the engine outlived its killed kernel"
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


@POSIX_SIGNALS
def test_an_interrupted_kernel_keeps_its_engine(sandbox, cache_dir):
    """Jupyter interrupts a kernel's whole process group.

    The call under way is cancelled (the kernel's KeyboardInterrupt); the engine goes on serving.
    """
    from jupyter_client.manager import start_new_kernel

    km, kc = start_new_kernel(kernel_name="python3", env=python_env(sandbox, cache_dir))
    try:
        rows, engine, _kernel = map(int, run_in_kernel(kc, KERNEL_CALL).split())
        assert rows == 5
        sandbox.faults([{"path_prefix": QUEUE, "kind": "latency", "latency_ms": 4000}])
        threading.Timer(1.5, km.interrupt_kernel).start()
        assert "KeyboardInterrupt" in run_in_kernel(kc, "hub.queue(iso='MISO', limit=5)")
        sandbox.control("DELETE", "/_sandbox/faults")
        out = run_in_kernel(kc, "print(len(hub.queue(iso='MISO', limit=3)), ENGINE.pid)")
        assert out.split() == ["3", str(engine)], out
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


LINUX_PROC = pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="Linux /proc")


@LINUX_PROC
@pytest.mark.parametrize("given", [None, "4"])
def test_the_engine_runs_small_unless_the_user_says_otherwise(sandbox, cache_dir, given):
    """ENGINE_FLAGS on its command line; one malloc arena, unless MALLOC_ARENA_MAX is set."""
    from dchub.api.engine import ENGINE_FLAGS

    env = python_env(sandbox, cache_dir)
    env.pop("MALLOC_ARENA_MAX", None)
    if given is not None:
        env["MALLOC_ARENA_MAX"] = given
    proc = subprocess.Popen(
        [sys.executable, "-c", CALLER],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        engine = json.loads(proc.stdout.readline())["engine"]
        args = Path(f"/proc/{engine}/cmdline").read_bytes().split(b"\0")
        environ = Path(f"/proc/{engine}/environ").read_bytes().split(b"\0")
    finally:
        proc.communicate("\n", timeout=30)
    assert [a.decode() for a in args[1 : 1 + len(ENGINE_FLAGS)]] == list(ENGINE_FLAGS)
    assert f"MALLOC_ARENA_MAX={given or 1}".encode() in environ
    assert not any(v.startswith(b"DCHUB_API_KEY=") for v in environ)  # the key travels in `open`


@POSIX_SIGNALS
def test_a_killed_engine_is_started_again_for_the_next_call(sandbox, hub):
    from dchub.api.engine import ENGINE

    assert len(hub.queue(iso="PJM", limit=5)) == 5
    first = ENGINE.pid
    assert first is not None
    os.kill(first, signal.SIGKILL)
    assert gone_within(first)
    # Until its pipes close (its threads may outlive its main one) a request would be written to
    # it: killed under that call, which is that call's error (test_async.py).
    deadline = time.monotonic() + 10
    while ENGINE.pid is not None and time.monotonic() < deadline:
        time.sleep(0.05)
    df = hub.queue(iso="ERCOT", limit=4, refresh=True)
    expected = sandbox.get(f"{QUEUE}?iso=ERCOT&limit=4", KEYS["pro"])["results"]
    assert list(df["queue_id"]) == [r["queue_id"] for r in expected]
    assert ENGINE.pid not in (None, first)


def test_two_processes_have_their_own_engines_and_share_the_cache(sandbox, cache_dir):
    first, a = start_caller(sandbox, cache_dir)
    try:
        second, b = start_caller(sandbox, cache_dir)
        try:
            assert a["engine"] != b["engine"] and alive(a["engine"]) and alive(b["engine"])
            assert (a["sent"], a["from_cache"]) == (1, False)
            assert (b["sent"], b["from_cache"]) == (0, True) and b["ids"] == a["ids"]
        finally:
            second.communicate("\n", timeout=30)
    finally:
        first.communicate("\n", timeout=30)
    assert gone_within(a["engine"]) and gone_within(b["engine"])


def forked(work) -> dict:
    """Runs ``work()`` in a forked child; its JSON result (the child ends with os._exit)."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(r)
        try:
            result = {"ok": work()}
        except BaseException as err:  # report anything to the parent
            result = {"error": f"{type(err).__name__}: {err}"}
        os.write(w, json.dumps(result).encode())
        os._exit(0)
    os.close(w)
    chunks = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.05)
    else:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        pytest.fail("the forked child did not finish (a lock held across fork?)")
    with os.fdopen(r, "rb") as f:
        chunks.append(f.read())
    return json.loads(b"".join(chunks) or b'{"error": "no report"}')


@pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork")
def test_a_forked_child_gets_its_own_engine_and_the_parent_keeps_its(hub):
    from dchub.api.engine import ENGINE

    ids = list(hub.queue(iso="PJM", limit=5)["queue_id"])
    parent = ENGINE.pid
    # Another thread holds the engine's lock at the fork (as one writing a request would).
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with ENGINE._lock:
            held.set()
            release.wait(30)

    holder = threading.Thread(target=hold)
    holder.start()
    held.wait(10)
    try:
        child = forked(
            lambda: {
                "engine": ENGINE.pid,
                "ids": list(hub.queue(iso="PJM", limit=5)["queue_id"]),
                "after": ENGINE.pid,
            }
        )
    finally:
        release.set()
        holder.join()
    assert "ok" in child, child
    assert child["ok"]["engine"] is None  # the parent's process is not the child's
    assert child["ok"]["after"] not in (None, parent) and child["ok"]["ids"] == ids
    assert gone_within(child["ok"]["after"]), "the child's engine outlived the child"
    assert list(hub.queue(iso="PJM", limit=5, refresh=True)["queue_id"]) == ids
    assert ENGINE.pid == parent and alive(parent)
