"""rulekit: the model writes the words, code owns the facts.

The public API. ``load`` compiles a rules file (and imports the parser on first use);
``load_compiled`` reads an artifact written by ``rulekit compile --out`` without importing it.
"""

from rulekit.errors import ArtifactError, CompileError, Diagnostic, RulekitError, Span
from rulekit.policy import OUTCOMES, Policy, load_compiled

__all__ = [
    "ArtifactError",
    "CompileError",
    "Diagnostic",
    "OUTCOMES",
    "Policy",
    "RulekitError",
    "Span",
    "__version__",
    "load",
    "load_compiled",
]

__version__ = "0.1.0"


def load(path) -> Policy:
    """Compile the rules file at ``path`` (and its imports) into an immutable Policy.

    Raises ``CompileError`` carrying every diagnostic when the ruleset does not compile.
    """
    from rulekit.compile import load as _load

    return _load(path)
