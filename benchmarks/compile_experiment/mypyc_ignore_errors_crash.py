# mypy: ignore-errors
# mypyc 2.4.1 (mypy 2.4.1), CPython 3.11.7: this module type-checks cleanly without the line
# above; with it, the compiled _trie drops a reference to None on every call and the process
# aborts ("Fatal Python error: none_dealloc") after a few thousand calls:
#   mypyc mypyc_ignore_errors_crash.py && python -c 'import mypyc_ignore_errors_crash as m
#   [m._trie(["ab", "ac"]) for _ in range(5000)]'
# (The function is a copy of rulekit.scan.base._trie, kept whole as the repro.)
from __future__ import annotations
import re
from typing import Iterable

def _trie(words: Iterable[str], guard: str | tuple[str, ...] | None = None) -> str:
    guards = (guard,) if isinstance(guard, str) else guard or ()
    root: dict = {}
    for word in words:
        node = root
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def build(node: dict, top: bool) -> str:
        branches = []
        for char, child in sorted(node.items()):
            if char:
                head = re.escape(char)
                if top:
                    head += "".join(f"(?<!{one}{re.escape(char)})" for one in guards)
                branches.append(head + build(child, False))
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    return build(root, True)
