"""The compile stages, one module per concern, run in order by ``rulekit.compile.STAGES``.

``context`` holds the shared state (``Compilation``) and helpers; ``imports`` reads the files and
their names; ``fields`` checks types, entities and aliases; ``usage`` checks what the ruleset
refers to (templates, prose, sweep, actions, unused declarations); ``build`` makes the Policy.
"""
