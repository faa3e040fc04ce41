"""Ready-made ``generate`` callables for ``rulekit.ground``.

- ``OpenAIChat`` (``rulekit.adapters.openai``): any OpenAI-compatible ``/v1/chat/completions``
  endpoint, through httpx (``pip install 'rulekit[openai]'``).

Each adapter is imported on first use, so that ``import rulekit.adapters`` needs no optional
dependency.
"""

from __future__ import annotations

__all__ = ["OpenAIChat"]


def __getattr__(name: str):
    if name == "OpenAIChat":
        from rulekit.adapters.openai import OpenAIChat
        return OpenAIChat
    raise AttributeError(f"module 'rulekit.adapters' has no attribute {name!r}")
