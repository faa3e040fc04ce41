"""What the sweep reports: a ``Finding``, and the fast way one is made (``_new_finding``).

Kept apart from ``rulekit.sweep`` so that the sweep's rule modules (``rulekit.sweep_days``,
``rulekit.sweep_amounts``) can make findings without importing the sweep.
"""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True, slots=True)
class Finding:
    kind: str           # number, word_number, multiple, date, quote, handle, email, url,
                        # label: an enum value's label (``rulekit.sweep_labels``);
                        # phrase: what `prose guarded` forbids (``rulekit.prose.with_guarded``);
                        # control: a character that reorders what is shown (``direction_controls``)
    text: str           # as in the answer
    value: str | None   # normalised
    start: int
    end: int
    code: str
    message: str
    # For a ``missing_input`` finding, the input the user is to be asked for (the first one
    # its row's entity ``requires`` that was not given), so that the ruleset's ``on missing
    # INPUT`` action applies; None for any other. In the JSON as "input".
    input: str | None = None
    # True when the evidence holds nothing the item could be, so the message says no more than
    # that ("3,100 is not in the evidence"); False when it holds the item and the answer said
    # it wrongly or a rule withholds it (another currency, a rounded figure, a stale record, a
    # quote put in another's mouth...), and the message says why. The retry feedback repeats
    # only the messages that say why (``rulekit.audit.feedback``). Not in the JSON: ``code``
    # and ``message`` say it to a reader.
    absent: bool = False

    def to_dict(self) -> dict:
        # The fields in order, as dataclasses.asdict gives them; every value is a str, an int
        # or None, so asdict's recursive copy only cost time. ``absent`` is left out (above).
        return {"kind": self.kind, "text": self.text, "value": self.value, "start": self.start,
                "end": self.end, "code": self.code, "message": self.message,
                "input": self.input}


class _FindingDraft:
    """A mutable twin of ``Finding`` (the same slots, in the same order): a finding is built
    with plain attribute stores and then made a ``Finding`` by assigning ``__class__``, because
    a frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``, several
    times slower, and a text full of unsupported figures makes one finding per figure."""
    __slots__ = Finding.__slots__


def _new_finding(kind: str, text: str, value: str | None, start: int, end: int, code: str,
                 message: str, input: str | None = None, absent: bool = False) -> Finding:
    draft = _FindingDraft()
    draft.kind, draft.text, draft.value, draft.start, draft.end = kind, text, value, start, end
    draft.code, draft.message, draft.input, draft.absent = code, message, input, absent
    draft.__class__ = Finding
    return draft  # type: ignore[return-value]


# The kinds ``rulekit.sweep._Judge._number`` judges.
_FIGURE_KINDS = frozenset(("number", "word_number"))
