"""A folder the test process cannot write, for the cases that read or write one."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import dbs
import pytest


@contextlib.contextmanager
def read_only_folder(folder: Path) -> Iterator[None]:
    """``folder`` made read-only for this process, root included: chmod for a user, the
    immutable attribute (chattr +i, undone after) for root, whom chmod does not stop. Under
    CI=true a folder that cannot be made read-only fails the test rather than skip it."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            yield
        finally:
            folder.chmod(0o755)
        return
    chattr = shutil.which("chattr")
    made = chattr and subprocess.run([chattr, "+i", str(folder)], capture_output=True).returncode == 0
    if not made:
        reason = "running as root, and chattr +i is not available here"
        if dbs.ON_CI:
            pytest.fail(f"CI=true and {reason}: a read-only folder case must run")
        pytest.skip(reason)
    try:
        yield
    finally:
        subprocess.run([chattr, "-i", str(folder)], check=True)
