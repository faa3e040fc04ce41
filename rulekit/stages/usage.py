"""Compile stages 7-11: what the ruleset refers to. Templates and their slots, the prose
policy, the sweep settings, the outcome actions and their messages, and declarations that
nothing uses."""

from __future__ import annotations

from rulekit import ast, policy as P, types as T
from rulekit.stages.context import (Compilation, FieldInfo, _after_failed_imports, _first_seen,
                                    suggest)
from rulekit.template import parse_template


# --- stage 7: templates -----------------------------------------------------------------------

def check_templates(c: Compilation) -> None:
    for template in list(c.shapes.values()) + list(c.fallbacks.values()):
        _check_template(c, template)


def _check_template(c: Compilation, template: ast.Template) -> None:
    text = template.text
    parsed = parse_template(text.raw)
    base = text.span.shifted(1, 0) if text.span.line == text.span.end_line else None
    for problem in parsed.problems:
        span = base.shifted(problem.start, problem.end - problem.start) if base else text.span
        c.error("RK404", f"malformed {template.kind} '{template.name.value}': {problem.message}",
                span)
    bound: dict[str, ast.Binding] = {}
    for binding in template.bindings:
        slot = binding.slot.value
        if slot in bound:
            c.error("RK201", f"slot '{slot}' is bound twice", binding.slot.span,
                    hint=_first_seen(bound[slot].slot.span))
            continue
        bound[slot] = binding
        check_field_ref(c, binding.ref, purpose="shown")
    used = set(parsed.slot_names)
    for slot in parsed.slots:
        if slot.name not in bound:
            span = base.shifted(slot.start, slot.end - slot.start) if base else text.span
            c.error("RK402", f"slot '{slot.name}' in {template.kind} '{template.name.value}' is "
                    "not bound to a field", span,
                    hint=f"add `{{ {slot.name} = entity.field }}` after the text, or write "
                    f"`{{{{{slot.name}}}}}` for literal braces")
            bound[slot.name] = None   # report each slot once
    for slot, binding in bound.items():
        if binding is not None and slot not in used and not parsed.problems:
            c.error("RK403", f"binding '{slot}' has no slot `{{{slot}}}` in the text",
                    binding.slot.span, hint=suggest(slot, used, "slots in the text"))


def check_field_ref(c: Compilation, ref: ast.FieldRef, purpose: str | None = None) -> FieldInfo | None:
    """Resolve `entity.field`; report an unknown name with a suggestion. With a ``purpose``,
    the field must also be readable."""
    entity, field = ref.entity.value, ref.field.value
    if entity not in c.entities:
        c.error("RK202", f"unknown entity '{entity}'", ref.entity.span,
                hint=_after_failed_imports(c, suggest(entity, c.entities, "entities")))
        return None
    info = c.fields.get((entity, field))
    if info is None:
        readable = [f for (e, f), i in c.fields.items() if e == entity and i.readable]
        c.error("RK203", f"unknown field '{field}' on entity '{entity}'", ref.field.span,
                hint=suggest(field, readable, "readable fields"))
        return None
    if purpose and not info.readable:
        c.error("RK212", f"field '{entity}.{field}' is hidden, so it can never be {purpose}",
                ref.field.span, hint="remove `hidden` from the field if customers may see it")
    return info


# --- stage 8: prose ---------------------------------------------------------------------------

def check_prose(c: Compilation) -> None:
    prose = list(c.items(ast.Prose))
    for extra in prose[1:]:
        c.error("RK201", "the prose policy is declared twice", extra.span,
                hint=_first_seen(prose[0].span))
    if not prose:
        return
    mode = prose[0].mode.value
    if mode not in P.PROSE_MODES:
        c.error("RK405", f"unknown prose policy '{mode}'", prose[0].mode.span,
                hint=suggest(mode, P.PROSE_MODES, "prose policies"))
    elif mode == "shapes" and not c.shapes:
        c.error("RK405", "`prose shapes` allows only approved shapes, and none is declared",
                prose[0].mode.span, hint='declare one: `shape NAME "text with {slot}" { ... }`')
    _check_forbidden(c, prose[0])


def _check_forbidden(c: Compilation, prose: ast.Prose) -> None:
    """RK414 for a forbidden phrase that could never be found, or a list under a mode other
    than `guarded`; RK201 for a phrase listed twice (in any case, white space collapsed)."""
    if prose.forbid and prose.mode.value in P.PROSE_MODES and prose.mode.value != "guarded":
        c.error("RK414", f"`forbid` applies under `prose guarded`, not `prose {prose.mode.value}`",
                prose.forbid[0].span, hint="`prose shapes` allows only the approved shapes, and "
                "`prose free` anything: write `prose guarded forbid ...`, or drop the list")
        return
    seen: dict[str, ast.String] = {}
    for phrase in prose.forbid:
        text = phrase.value
        if not text.strip():
            c.error("RK414", "an empty forbidden phrase forbids nothing", phrase.span,
                    hint='write the words to forbid: `forbid "refund"`')
        elif "{" in text or "}" in text:
            c.error("RK414", f"forbidden phrase \"{text}\" holds a brace", phrase.span,
                    hint="the phrases are read in the words outside the slots, where no slot "
                    "or brace is left; forbid the words around it")
        elif text != text.strip():
            c.error("RK414", f"forbidden phrase \"{text}\" starts or ends with white space",
                    phrase.span, hint=f'phrases match whole words: write "{text.strip()}"')
        else:
            key = " ".join(text.casefold().split())
            if key in seen:
                c.error("RK201", f"phrase \"{text}\" is forbidden twice", phrase.span,
                        hint=_first_seen(seen[key].span) + "; phrases match in any case")
            seen.setdefault(key, phrase)


# --- stage 9: sweep ---------------------------------------------------------------------------

def check_sweep(c: Compilation) -> None:
    sweeps = list(c.items(ast.Sweep))
    for extra in sweeps[1:]:
        c.error("RK201", "the sweep is declared twice", extra.span, hint=_first_seen(sweeps[0].span))
    if not sweeps:
        return
    seen: dict[type, ast.SweepStatement] = {}
    for statement in sweeps[0].statements:
        if type(statement) in seen and not isinstance(statement, (ast.Untrusted, ast.Authoritative)):
            c.error("RK308", "this sweep setting is given twice", statement.span,
                    hint=_first_seen(seen[type(statement)].span))
        seen.setdefault(type(statement), statement)
        if isinstance(statement, ast.SmallIntegers):
            if statement.limit is not None:
                limit = statement.limit.value
                if limit != limit.to_integral_value() or not 0 <= limit <= 1000:
                    c.error("RK304", "the small-integer limit is a whole number from 0 to 1000",
                            statement.limit.span)
            for context in statement.contexts:
                if context.value not in P.SMALL_INTEGER_CONTEXTS:
                    c.error("RK406", f"unknown small-integer context '{context.value}'",
                            context.span, hint=suggest(context.value, P.SMALL_INTEGER_CONTEXTS,
                                                       "contexts"))
        elif isinstance(statement, ast.Rounding):
            for ref in statement.fields:
                info = check_field_ref(c, ref)
                if info and info.kind and not T.TYPES[info.kind].NUMERIC:
                    c.error("RK302", f"rounding applies to numbers; '{ref.dotted()}' is a "
                            f"{info.kind} field", ref.span)
        elif isinstance(statement, (ast.Authoritative, ast.Untrusted)):
            for target in statement.targets:
                if isinstance(target, ast.FieldRef):
                    check_field_ref(c, target)
                elif not target.path.value.startswith("$"):
                    c.error("RK304", f"'{target.path.value}' is not a JSON path", target.span,
                            hint='JSON paths start at the root: "$.reviews[*].body"')


# --- stage 10: actions ------------------------------------------------------------------------

def check_actions(c: Compilation) -> None:
    handled: dict[str, ast.Outcome] = {}
    missing: dict[str, ast.Outcome] = {}
    otherwise: ast.Outcome | None = None
    for rule in c.items(ast.OnRule):
        for outcome in rule.outcomes:
            if outcome.kind == "otherwise":
                if otherwise is not None:
                    c.error("RK409", "this `on otherwise` rule is never used", outcome.span,
                            hint=f"another `on otherwise` at {otherwise.span.at()} comes first")
                otherwise = otherwise or outcome
                continue
            name = outcome.name.value
            if outcome.kind == "missing":
                if name not in c.inputs:
                    c.error("RK206", f"unknown input '{name}'", outcome.name.span,
                            hint=suggest(name, c.inputs, "inputs") or
                            f"declare it: `input {name} label \"...\"`")
                elif name in missing:
                    c.error("RK409", f"this rule for `missing {name}` is never used",
                            outcome.span, hint=f"`missing {name}` is already handled at "
                            f"{missing[name].span.at()}")
                else:
                    missing[name] = outcome
                    c.used.add(("input", name))
                continue
            if name not in P.OUTCOMES:
                c.error("RK407", f"unknown outcome '{name}'", outcome.name.span,
                        hint=suggest(name, P.OUTCOMES, "outcomes"))
            elif name in handled:
                c.error("RK409", f"this rule for '{name}' is never used", outcome.span,
                        hint=f"'{name}' is already handled at {handled[name].span.at()}")
            else:
                handled[name] = outcome
        _check_action(c, rule.action)
    if otherwise is not None and all(handled.get(o) is not None for o in P.OUTCOMES):
        c.error("RK409", "this `on otherwise` rule is never used", otherwise.span,
                hint="every outcome already has its own rule; remove it")
    # `missing_input` cannot happen without inputs, nor need a rule when each input has its own.
    if "missing_input" not in handled and all(name in missing for name in c.inputs):
        handled["missing_input"] = None
    if c.header is not None and otherwise is None:
        unhandled = [o for o in P.OUTCOMES if o not in handled]
        if unhandled:
            c.error("RK408", "outcome" + ("s" if len(unhandled) > 1 else "") + " without an "
                    f"action: {', '.join(unhandled)}", c.header.name.span,
                    hint=f"add `on {unhandled[0]} refuse \"...\"` (or any action) for each, or a "
                    "catch-all `on otherwise handoff`; rulekit fails closed and will not guess")


def _check_action(c: Compilation, action: ast.Action) -> None:
    if isinstance(action, ast.Regenerate):
        seen: dict[str, ast.RegenerateOption] = {}
        for option in action.options:
            if option.kind in seen:
                c.error("RK308", f"regenerate option '{option.kind.replace('_', ' ')}' is given "
                        "twice", option.span, hint=_first_seen(seen[option.kind].span))
                continue
            seen[option.kind] = option
            if option.value is not None:
                number = option.value.value
                if number != number.to_integral_value() or not 1 <= number <= 10:
                    what = "attempts" if option.kind == "max" else "items to name"
                    c.error("RK410", f"the number of {what} must be a whole number from 1 to 10",
                            option.value.span,
                            hint="regenerate max 1 retries once, which is where nearly all the "
                            "benefit is" if option.kind == "max" else None)
        action = action.then
    if isinstance(action, ast.UseFallback):
        name = action.name.value
        if name not in c.fallbacks:
            c.error("RK205", f"unknown fallback '{name}'", action.name.span,
                    hint=_after_failed_imports(c, suggest(name, c.fallbacks, "fallbacks") or
                    f"declare it: `fallback {name} \"text with {{slot}}\" {{ slot = entity.field }}`"))
        else:
            c.used.add(("fallback", name))
        return
    message = getattr(action, "message", None)
    if message is not None:
        _check_message(c, message)


def _check_message(c: Compilation, message: ast.String) -> None:
    parsed = parse_template(message.raw)
    base = message.span.shifted(1, 0) if message.span.line == message.span.end_line else None
    for problem in parsed.problems:
        span = base.shifted(problem.start, problem.end - problem.start) if base else message.span
        c.error("RK404", f"malformed message: {problem.message}", span)
    for slot in parsed.slots:
        if slot.name not in P.MESSAGE_PLACEHOLDERS:
            span = base.shifted(slot.start, slot.end - slot.start) if base else message.span
            c.error("RK411", f"unknown placeholder '{{{slot.name}}}' in a message", span,
                    hint=suggest(slot.name, P.MESSAGE_PLACEHOLDERS, "a message may use"))


# --- stage 11: unused declarations ------------------------------------------------------------

def report_unused(c: Compilation) -> None:
    if c.header is None:    # a library's declarations are used by the files that import it
        return
    for kind, table in (("aliases", c.aliases), ("fallback", c.fallbacks), ("input", c.inputs)):
        for name, item in table.items():
            # A shared library declares more than any one ruleset uses: judge only the root.
            if (kind, name) not in c.used and item.name.span.path == c.root:
                what = {"aliases": "alias table", "fallback": "fallback", "input": "input"}[kind]
                c.warn("RK412", f"{what} '{name}' is never used", item.name.span,
                       hint="remove it, or refer to it")
