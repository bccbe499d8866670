"""Run kernel checks in a fresh process with numba's bounds checking on."""

import os
import subprocess
import sys
import tempfile
from pathlib import Path


def run_with_boundscheck(code: str) -> None:
    """Run ``code`` in a fresh process with ``NUMBA_BOUNDSCHECK=1`` and its own numba cache
    (an index out of bounds in a kernel then raises IndexError instead of reading memory);
    assert that it succeeds and prints ``ok``."""
    root = Path(__file__).parents[2]
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=cache)
        run = subprocess.run([sys.executable, "-c", code], cwd=root, env=env,
                             capture_output=True, text=True, timeout=600)  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.strip() == "ok"
