"""rulekit: the model writes the words, code owns the facts.

The public API. ``load`` compiles a rules file (and imports the parser on first use);
``load_compiled`` reads an artifact written by ``rulekit compile --out`` without importing it.
``check`` verifies one model reply against the source of record and returns a ``Decision``;
``audit`` sweeps free text against its evidence; ``ground`` drives a model through generate ->
check -> retry -> fallback; ``StreamGate`` releases streamed text only as far as it passed.
"""

from rulekit.errors import ArtifactError, CompileError, Diagnostic, RulekitError, Span
from rulekit.policy import OUTCOMES, Policy, load_compiled

__all__ = [
    "ArtifactError",
    "CompileError",
    "Decision",
    "Diagnostic",
    "OUTCOMES",
    "Policy",
    "RulekitError",
    "Span",
    "StreamGate",
    "__version__",
    "audit",
    "check",
    "ground",
    "load",
    "load_compiled",
]

__version__ = "0.1.0"


def _callable_module(module_name: str, function) -> None:
    """Make the submodule ``module_name`` callable as ``function``.

    ``rulekit.check`` is both a function of the public API and the module that defines it. The
    function is loaded lazily (below), but as soon as anything imports the submodule, Python
    sets the package attribute ``check`` to the module, and ``rulekit.check(...)`` would stop
    working. A module whose class forwards calls keeps both spellings right whichever was
    imported first. Called once, at the end of each such module.
    """
    import sys
    import types

    class CallableModule(types.ModuleType):
        def __call__(self, *args, **kwargs):
            return function(*args, **kwargs)

    sys.modules[module_name].__class__ = CallableModule


def __getattr__(name: str):
    # The checker (and babel, which it formats with) loads on first use, so that importing
    # rulekit to load a compiled policy stays cheap.
    if name == "check":
        from rulekit.check import check
        return check
    if name == "Decision":
        from rulekit.decision import Decision
        return Decision
    if name == "audit":
        from rulekit.audit import audit
        return audit
    if name == "ground":
        from rulekit.ground import ground
        return ground
    if name == "StreamGate":
        from rulekit.stream import StreamGate
        return StreamGate
    raise AttributeError(f"module 'rulekit' has no attribute {name!r}")


def load(path) -> Policy:
    """Compile the rules file at ``path`` (and its imports) into an immutable Policy.

    Raises ``CompileError`` carrying every diagnostic when the ruleset does not compile.
    """
    from rulekit.compile import load as _load

    return _load(path)
