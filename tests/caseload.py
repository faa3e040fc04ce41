"""Loading parametrised cases kept as YAML data: one place that rejects a case asserting
nothing, a case without a note, and a key no case kind knows (a typo would assert nothing)."""

from __future__ import annotations

from pathlib import Path
from typing import Mapping

import pytest
import yaml


def check_case(case: object, where: str, case_keys: Mapping[str, set[str]]) -> str:
    """The kind of a case: the one input key of ``case_keys`` it carries. Raises ValueError for
    a case that is not a mapping, has no note, has no want_* field, or has an unknown key."""
    if not isinstance(case, dict):
        raise ValueError(f"{where}: a case is a mapping")
    if not str(case.get("note", "")).strip():
        raise ValueError(f"{where}: a case needs a note")
    if not any(key.startswith("want_") for key in case):
        raise ValueError(f"{where}: a case needs at least one want_* field")
    kinds = [kind for kind in case_keys if kind in case]
    if len(kinds) != 1:
        raise ValueError(f"{where}: a case has exactly one of {sorted(case_keys)}")
    unknown = set(case) - case_keys[kinds[0]]
    if unknown:
        raise ValueError(f"{where}: unknown keys {sorted(unknown)}")
    return kinds[0]


def check_basics(case: object, where: str, input_keys: set[str], want_keys: set[str]) -> None:
    """The checks every case runner shares: a mapping, a note, only known keys, a want_*."""
    if not isinstance(case, dict):
        raise ValueError(f"{where}: a case is a mapping")
    if not isinstance(case.get("note"), str) or not case["note"].strip():
        raise ValueError(f"{where}: a case needs a note")
    unknown = set(case) - input_keys - want_keys
    if unknown:
        raise ValueError(f"{where}: unknown keys {sorted(unknown)}")
    if not want_keys & set(case):
        raise ValueError(f"{where}: a case needs at least one want_* key")


def load_cases(folder: Path, case_keys: Mapping[str, set[str]], kinds: tuple[str, ...] | str,
               extra_check=None) -> list:
    """pytest params for every case of the given kind(s) in ``folder/*.yaml`` (a YAML list)."""
    wanted = (kinds,) if isinstance(kinds, str) else kinds
    params = []
    for path in sorted(folder.glob("*.yaml")):
        for index, case in enumerate(yaml.safe_load(path.read_text(encoding="utf-8")) or ()):
            where = f"{path.name}[{index}]"
            kind = check_case(case, where, case_keys)
            if extra_check is not None:
                extra_check(case, where)
            if kind in wanted:
                params.append(pytest.param(case, id=f"{path.stem}-{index}"))
    return params
