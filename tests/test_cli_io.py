"""What the command line does with its files and streams when they misbehave: `fmt` writing
over a rules file on a full disk, inputs larger than their caps, model-supplied text in the text
output, a closed pipe after a failure, flags `--jsonl` cannot use, a byte order mark on
standard input."""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from folders import read_only_folder

from rulekit.cli import main

ROOT = Path(__file__).resolve().parent.parent
MESSY = 'ruleset tiny{version "1"}\non otherwise refuse "I could not verify that."\n'


def _rulekit(*args: str, stdin: bytes | None = None, **env: str) -> subprocess.CompletedProcess:
    rulekit = Path(sys.executable).with_name("rulekit")
    return subprocess.run([str(rulekit), *args], capture_output=True, input=stdin, timeout=120,
                          cwd=ROOT, env={**os.environ, **env})


# --- 1. fmt writes through a temporary file, and a failed write is exit 2 --------------------

def test_fmt_on_a_full_disk_leaves_the_file_whole_and_is_exit_2(tmp_path, capsys, monkeypatch):
    messy = tmp_path / "tiny.rules"
    messy.write_text(MESSY)

    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    assert main(["fmt", str(messy)]) == 2
    err = capsys.readouterr().err
    assert f"cannot write '{messy}'" in err and "No space left on device" in err, err
    assert "left unchanged" in err
    assert "bug" not in err and "internal error" not in err
    assert messy.read_text() == MESSY
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tiny.rules"]   # no temporary left


def test_fmt_in_a_read_only_folder_is_exit_2_naming_the_file(tmp_path, capsys):
    folder = tmp_path / "ro"
    folder.mkdir()
    messy = folder / "tiny.rules"
    messy.write_text(MESSY)
    with read_only_folder(folder):
        assert main(["fmt", str(messy)]) == 2
    err = capsys.readouterr().err
    assert f"rulekit fmt: cannot write '{messy}'" in err, err
    assert "bug" not in err
    assert messy.read_text() == MESSY


def test_fmt_of_a_read_only_file_is_exit_2_and_leaves_it(tmp_path, capsys):
    """chmod a-w for a user (replacing the file through a temporary one must not get round
    it), the immutable attribute for root, whom a mode does not stop."""
    messy = tmp_path / "tiny.rules"
    messy.write_text(MESSY)
    if os.geteuid() != 0:
        messy.chmod(0o444)
        assert main(["fmt", str(messy)]) == 2
        messy.chmod(0o644)
    else:
        if subprocess.run(["chattr", "+i", str(messy)], capture_output=True).returncode:
            pytest.skip("running as root, and chattr +i is not available here")
        try:
            assert main(["fmt", str(messy)]) == 2
        finally:
            subprocess.run(["chattr", "-i", str(messy)], check=True)
    err = capsys.readouterr().err
    assert f"rulekit fmt: cannot write '{messy}'" in err and "left unchanged" in err, err
    assert "bug" not in err
    assert messy.read_text() == MESSY
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tiny.rules"]


def test_fmt_keeps_the_mode_of_the_file_and_follows_a_link(tmp_path, capsys):
    messy = tmp_path / "tiny.rules"
    messy.write_text(MESSY)
    messy.chmod(0o640)
    link = tmp_path / "link.rules"
    link.symlink_to(messy.name)
    assert main(["fmt", str(link)]) == 0
    assert link.is_symlink()
    assert stat.S_IMODE(messy.stat().st_mode) == 0o640
    assert messy.read_text().startswith("ruleset tiny {\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.rules", "tiny.rules"]
