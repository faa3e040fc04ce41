"""`rulekit demo`: compile the shipped example rulesets and show what each declares.

Later capabilities (checking claims, sweeping free text, the grounding loop) extend this with
runs of example replies, so that `make demo` always shows the whole job.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TextIO

from rulekit.policy import Action, Policy


def _duration(seconds: float) -> str:
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60), ("s", 1)):
        if seconds >= size and seconds % size == 0:
            return f"{seconds // size:g}{unit}"
    return f"{seconds:g}s"


def describe_action(action: Action) -> str:
    if action.kind == "regenerate":
        extras = [f"naming up to {action.naming}"]
        if action.with_values:
            extras.append("with true values")
        if action.narrow:
            extras.append("narrowed facts")
        return (f"regenerate (at most {action.max_attempts}, {', '.join(extras)}), then "
                f"{describe_action(action.then)}")
    if action.kind == "refuse":
        return f'refuse "{action.message}"'
    if action.kind == "ask":
        return f"ask (next_action={action.hint})"
    if action.kind == "handoff":
        return "hand off to a person"
    return f"fall back to '{action.fallback}'"


def describe(policy: Policy) -> str:
    lines = [f"ruleset {policy.name} {policy.version}  (locale {policy.locale}, "
             f"currency {policy.currency or '-'}, time zone {policy.timezone}, "
             f"sha256 {policy.sources_sha256[:12]})"]
    if policy.tenant:
        shared = any(e.lookup is not None and e.lookup.shared for e in policy.entities)
        lines.append(f"  every lookup is scoped to the signed-in user's :{policy.tenant}"
                     + (", except the shared entities'" if shared else ""))
    for entity in policy.entities:
        fresh = (f", fresh within {_duration(entity.fresh_seconds)} via {entity.fresh_via}"
                 if entity.fresh_seconds else "")
        matching = dict(entity.matching)
        needs = "".join(f", requires {name}" + (f" matching {matching[name]}" if name in matching
                                                  else "") for name in entity.requires)
        shared = ", shared by every user" if entity.lookup is not None and entity.lookup.shared \
            else ""
        lines.append(f"  entity {entity.name} (key {entity.key}{fresh}{needs}{shared})")
        matched = {field: name for name, field in entity.matching}
        for field in entity.fields:
            detail = field.type.kind
            if field.type.kind == "money":
                detail += f" {field.type.currency} ({field.type.storage} units)"
            elif field.type.kind == "decimal" and field.type.tolerance:
                detail += f" ±{field.type.tolerance}"
            elif field.type.kind == "enum":
                detail += " {" + ", ".join(field.type.values) + "}"
            elif field.type.kind in ("date", "timestamp"):
                detail += f" in {field.type.zone}"
            if field.readable:
                access = "readable"
            elif field.name in matched:
                access = f"HIDDEN: read only to compare with the {matched[field.name]}, never shown"
            elif field.name == entity.fresh_via:
                access = "HIDDEN: read only for freshness, never shown"
            else:
                access = "HIDDEN: never looked up or shown"
            lines.append(f"    {field.name:<22} {detail:<34} {access}")
    for shape in policy.shapes:
        lines.append(f'  shape {shape.name}: "{shape.text}"')
    for fallback in policy.fallbacks:
        lines.append(f'  fallback {fallback.name}: "{fallback.text}"')
    lines.append(f"  prose outside slots: {policy.prose}")
    sweep = policy.sweep
    lines.append(f"  sweep: small integers up to {sweep.small_integer_limit} free only as "
                 f"{', '.join(sweep.small_integer_contexts) or 'nothing'}"
                 + (f"; rounding allowed for {', '.join(sweep.rounding)}" if sweep.rounding else
                    "; no rounding")
                 + (f"; untrusted {', '.join(sweep.untrusted)}" if sweep.untrusted else ""))
    for rule in policy.actions:
        lines.append(f"  on {rule.outcome:<17} {describe_action(rule.action)}")
    for rule in policy.missing:
        lines.append(f"  on missing {rule.input:<9} {describe_action(rule.action)}")
    return "\n".join(lines)


def write_sqlite(path: Path, rows: dict) -> None:
    """An example database: one table per entity, one column per key seen in its rows."""
    import sqlite3

    def quote(name: str) -> str:
        return '"' + name.replace('"', '""') + '"'

    with sqlite3.connect(path) as connection:
        for table, records in rows.items():
            columns = list(dict.fromkeys(key for record in records for key in record)) or ["id"]
            connection.execute(f"CREATE TABLE {quote(table)} ({', '.join(map(quote, columns))})")
            for record in records:
                connection.execute(
                    f"INSERT INTO {quote(table)} ({', '.join(map(quote, record))}) "
                    f"VALUES ({', '.join('?' for _ in record)})", tuple(record.values()))
    connection.close()


def run_examples(policy: Policy, example: Path, out: TextIO) -> None:
    """Check each example reply against a real SQLite database built from the example rows."""
    import datetime as dt
    import tempfile

    from rulekit.check import check
    from rulekit.sources.sqlite import SqliteResolver

    data = json.loads(example.read_text("utf-8"))
    now = dt.datetime.fromisoformat(data["now"].replace("Z", "+00:00"))
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / f"{policy.name}.db"
        write_sqlite(database, data["rows"])
        source = SqliteResolver(database)
        out.write(f"Checking replies against {policy.name} (SQLite, now = {data['now']}):\n")
        for number, case in enumerate(data["replies"], 1):
            reply = case.get("reply_text", case.get("reply"))
            decision = check(policy, reply if isinstance(reply, str) else json.dumps(reply), source,
                             now=now, attempt=case.get("attempt", 1),
                             inputs=case.get("inputs", data.get("inputs", {})))
            out.write(f"\n  {number}. {case['title']}\n")
            for claim in decision.claims:
                out.write(f"     {claim.key:<10} {claim.outcome:<13} {claim.citation or ''}\n")
            out.write(f"     -> {decision.decision}"
                      + (f" (next_action: {decision.next_action})" if decision.next_action else "") + "\n")
            if decision.text:
                out.write(f"     text: {decision.text}\n")
            if decision.message:
                out.write(f"     message: {decision.message}\n")
            if decision.decision == "regenerate":
                first = decision.feedback.splitlines()[1] if decision.feedback else ""
                out.write(f"     feedback: {first.strip()}\n")
            elif decision.reasons and not decision.delivered:
                out.write(f"     reason: {decision.reasons[0].message}\n")
        out.write("\n")


def run_audits(policy: Policy, example: Path, out: TextIO) -> None:
    """Sweep each example answer against the example evidence."""
    from rulekit.audit import audit
    from rulekit.sweep import SweepSettings

    data = json.loads(example.read_text("utf-8"))
    evidence = SweepSettings.from_policy(policy).index(data["evidence"], policy.locale)
    out.write(f"Sweeping free-text answers against {policy.name}'s evidence "
              f"(question: {data.get('question', '-')}):\n")
    for number, case in enumerate(data["answers"], 1):
        result = audit(case["text"], evidence, policy=policy, question=data.get("question"))
        out.write(f"\n  {number}. {case['title']}\n     text: {case['text']}\n")
        for finding in result.findings:
            out.write(f"     finding [{finding.code}] {finding.text!r} at {finding.start}-"
                      f"{finding.end}: {finding.message}\n")
        out.write(f"     -> {result.decision.decision}\n")
        if result.decision.feedback:
            out.write(f"     feedback: {result.decision.feedback}\n")
    out.write("\n")


def run_routing(policy: Policy, example: Path, out: TextIO) -> None:
    """Route each example question to the declared sources and run them against a SQLite
    database built from the example tables, as the verified member; print the Sources panel."""
    import datetime as dt
    import tempfile

    from rulekit.route import gather
    from rulekit.sources.sqlite import SqliteResolver

    routing = json.loads(example.read_text("utf-8")).get("routing")
    if not routing or not policy.data_sources:
        return
    now = dt.datetime.fromisoformat(routing["now"])
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / f"{policy.name}.db"
        write_sqlite(database, routing["tables"])
        source = SqliteResolver(database)
        out.write(f"Routing questions to {policy.name}'s sources (SQLite, member "
                  f"{routing['tenant']}, now = {routing['now']}):\n")
        for question in routing["questions"]:
            gathered = gather(policy, question, source, tenant=routing["tenant"], now=now)
            out.write(f"\n  Q: {question}\n")
            for run in gathered.sources:
                window = f", {run.since[:10]} to {run.until[:10]}" if run.since else ""
                picked = f" (matched {', '.join(repr(k) for k in run.matched)})" if run.matched \
                    else ""
                state = f"FAILED: {run.error}" if run.error else \
                    ("empty" if run.empty else f"{run.rows} rows")
                out.write(f"     source {run.name}{window}: {state}{picked}\n")
        source.close()
    out.write("\n")


def run_loop(policy: Policy, example: Path, out: TextIO) -> None:
    """Drive the grounding loop with a scripted model through the example's scenarios, against
    a SQLite database built from the example rows; print each attempt and the final decision."""
    import datetime as dt
    import tempfile

    from rulekit.ground import ground
    from rulekit.sources.sqlite import SqliteResolver

    data = json.loads(example.read_text("utf-8"))
    loop = data.get("loop")
    if not loop:
        return
    now = dt.datetime.fromisoformat(data["now"].replace("Z", "+00:00"))
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / f"{policy.name}.db"
        write_sqlite(database, data["rows"])
        source = SqliteResolver(database)
        out.write(f"The grounding loop on {policy.name}, with a scripted model (SQLite, "
                  f"question: {loop['question']}):\n")
        for number, scenario in enumerate(loop["scenarios"], 1):
            replies = [json.dumps(r) for r in scenario["replies"]]

            def scripted(request, replies=replies):
                return replies[min(request.attempt, len(replies)) - 1]

            grounded = ground(scripted, policy, source=source, question=loop["question"],
                              now=now)
            out.write(f"\n  {number}. {scenario['title']}\n")
            for attempt in grounded.attempts:
                template = json.loads(attempt.reply).get("answer_template", "")
                wrong = [f"{c.key} {c.claimed!r} is {c.outcome}" for c in attempt.decision.claims
                         if c.outcome != "confirmed"]
                wrong += [f"{r.message.split(':')[0]} is not in the data"
                          if r.code == "stray_figure" else r.message
                          for r in attempt.decision.reasons if r.path and r.path.startswith(
                              "$.answer_template") and r.code != "contradicted"]
                out.write(f"     attempt {attempt.number}: {template}\n"
                          f"       -> {attempt.decision.decision}"
                          + (f" ({'; '.join(dict.fromkeys(wrong))})" if wrong else "") + "\n")
            final = grounded.decision
            out.write(f"     final: {final.decision}: {final.text or final.message}\n")
        source.close()
    out.write("\n")


def run(rulesets: str, out: TextIO) -> int:
    from rulekit.compile import compile_file
    from rulekit.errors import render_all

    folder = Path(rulesets)
    paths = sorted(folder.glob("*.rules"))
    if not paths:
        out.write(f"rulekit demo: no .rules files in '{folder}'; run it from the project folder "
                  "or pass --rulesets DIR\n")
        return 2
    status = 0
    for path in paths:
        result = compile_file(path)
        if not result.ok:
            out.write(render_all(result.diagnostics, result.sources) + "\n")
            status = 1
            continue
        out.write(describe(result.policy) + "\n\n")
        example = folder / "examples" / f"{result.policy.name}.json"
        if example.exists():
            free_text = "answers" in json.loads(example.read_text("utf-8"))
            (run_audits if free_text else run_examples)(result.policy, example, out)
            run_routing(result.policy, example, out)
            run_loop(result.policy, example, out)
    return status


# Questions for `rulekit demo --model local`: what a customer might ask of each ruleset's
# example rows. The claims channel for every one; the shop also gets one question in free prose,
# where a small model invents figures and the sweep has to catch them.
LOCAL_QUESTIONS = {
    "shop": [("claims", "How much is the navy raincoat?"),
             ("claims", "Is the navy raincoat in stock?"),
             ("claims", "How much is the Bottle BT-3 500ml?"),
             ("prose", "How much is the navy raincoat, and how many are left?")],
    "orders": [("claims", "When did my order ord_88431 ship?"),
               ("claims", "What was the total of order ord_88431?"),
               ("claims", "How many items are in order ord_88431?")],
}


def _one_line(reply: str | None, limit: int = 400) -> str:
    """A model's reply on one line: compact JSON when it parses, else the text itself."""
    if reply is None:
        return "(no reply)"
    try:
        text = json.dumps(json.loads(reply), ensure_ascii=False, separators=(", ", ": "))
    except ValueError:
        text = " ".join(reply.split())
    return text if len(text) <= limit else text[:limit] + " ..."


def _attempt_findings(attempt) -> list[str]:
    """What was wrong with one attempt, as short phrases: claims that did not confirm, and the
    decision's reasons (the sweep's findings in the prose channel)."""
    if attempt.decision is None:
        return [attempt.error or "the model gave no reply"]
    found = [f"{c.key} {c.claimed!r} is {c.outcome}" for c in attempt.decision.claims
             if c.outcome != "confirmed"]
    found += [f"[{f.code}] {f.text!r}" for f in attempt.findings]
    if not found:
        found = [f"[{r.code}] {r.message}" for r in attempt.decision.reasons]
    return list(dict.fromkeys(found))


def run_local(rulesets: str, out: TextIO, model=None) -> int:
    """`rulekit demo --model local`: the grounding loop with a real model (SmolLM2-135M through
    llama-cpp-python, ``rulekit[local]``) on the shop and orders examples, against SQLite.
    Prints every attempt (the raw reply, what was wrong, the decision) and the final decision.
    Greedy decoding with a fixed seed, so a run prints the same as the last one on the same
    build. ``model`` replaces the local model (tests pass a scripted one)."""
    import datetime as dt
    import tempfile

    from rulekit.compile import compile_file
    from rulekit.errors import render_all
    from rulekit.ground import ground
    from rulekit.sources.sqlite import SqliteResolver

    folder = Path(rulesets)
    if model is None:
        from rulekit.adapters.local import LocalModel, LocalModelError

        try:
            model = LocalModel(temperature=0.0, seed=0, max_tokens=160)
        except LocalModelError as exc:
            out.write(f"rulekit demo --model local: {exc}\n")
            return 2
    status = 0
    for name, questions in LOCAL_QUESTIONS.items():
        path, example = folder / f"{name}.rules", folder / "examples" / f"{name}.json"
        if not path.exists() or not example.exists():
            out.write(f"rulekit demo --model local: {path} or {example} is missing; run it from "
                      "the project folder or pass --rulesets DIR\n")
            return 2
        result = compile_file(path)
        if not result.ok:
            out.write(render_all(result.diagnostics, result.sources) + "\n")
            status = 1
            continue
        policy = result.policy
        data = json.loads(example.read_text("utf-8"))
        now = dt.datetime.fromisoformat(data["now"].replace("Z", "+00:00"))
        with tempfile.TemporaryDirectory() as temporary:
            database = Path(temporary) / f"{policy.name}.db"
            write_sqlite(database, data["rows"])
            source = SqliteResolver(database)
            out.write(f"The grounding loop on {policy.name}, with {model!r} "
                      f"(SQLite, now = {data['now']}):\n")
            for channel, question in questions:
                where = ({"source": source, "evidence": data["rows"]} if channel == "claims"
                         else {"evidence": data["rows"]})
                grounded = ground(model, policy, question=question, now=now,
                                  inputs=data.get("inputs", {}), **where)
                out.write(f"\n  Q ({channel}): {question}\n")
                for attempt in grounded.attempts:
                    out.write(f"     attempt {attempt.number} ({attempt.generate_seconds:.2f} s "
                              f"in the model, {attempt.check_seconds * 1000:.1f} ms in "
                              f"rulekit): {_one_line(attempt.reply)}\n")
                    wrong = _attempt_findings(attempt) if attempt.decision is None or \
                        attempt.decision.decision != "answer" else []
                    for finding in wrong:
                        out.write(f"       finding: {finding}\n")
                    if attempt.decision is not None:
                        out.write(f"       -> {attempt.decision.decision}\n")
                final = grounded.decision
                out.write(f"     final: {final.decision}: {final.text or final.message}\n")
            source.close()
        out.write("\n")
    return status
