"""What the sweep reports: a ``Finding``, and the fast way one is made (``_new_finding``).

Kept apart from ``rulekit.sweep`` so that the sweep's rule modules (``rulekit.sweep_days``,
``rulekit.sweep_amounts``) can make findings without importing the sweep.
"""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True, slots=True)
class Finding:
    kind: str           # number, word_number, multiple, date, quote, handle, email, url;
                        # phrase: what `prose guarded` forbids (``rulekit.prose.with_guarded``);
                        # control: a character that reorders what is shown (``direction_controls``)
    text: str           # as in the answer
    value: str | None   # normalised
    start: int
    end: int
    code: str
    message: str

    def to_dict(self) -> dict:
        # The fields in order, as dataclasses.asdict gives them; every value is a str, an int
        # or None, so asdict's recursive copy only cost time.
        return {"kind": self.kind, "text": self.text, "value": self.value, "start": self.start,
                "end": self.end, "code": self.code, "message": self.message}


class _FindingDraft:
    """A mutable twin of ``Finding`` (the same slots, in the same order): a finding is built
    with plain attribute stores and then made a ``Finding`` by assigning ``__class__``, because
    a frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``, several
    times slower, and a text full of unsupported figures makes one finding per figure."""
    __slots__ = Finding.__slots__


def _new_finding(kind: str, text: str, value: str | None, start: int, end: int, code: str,
                 message: str) -> Finding:
    draft = _FindingDraft()
    draft.kind, draft.text, draft.value, draft.start, draft.end = kind, text, value, start, end
    draft.code, draft.message = code, message
    draft.__class__ = Finding
    return draft  # type: ignore[return-value]


# The kinds ``rulekit.sweep._Judge._number`` judges.
_FIGURE_KINDS = frozenset(("number", "word_number"))
