"""Where the facts come from: the resolver protocol, and ``open_source`` to pick one.

The claims checker never asks a database about one claim at a time. For each check it groups
the claims by entity and asks once per entity: "these fields, for these ids". That request is a
``LookupRequest``; the answer is a ``LookupResult``, keyed by the string form of the entity's
key. One question per entity keeps a reply with twenty claims at one round trip per entity, and
it keeps the SQL a resolver builds to a single, fixed shape that is easy to audit.

A resolver is anything with ``fetch(request) -> LookupResult``. Two ship here:

- ``MemoryResolver`` (``rulekit.sources.memory``): rows given as a dict or a JSON file; for
  tests, demos and small fixed catalogues;
- ``SqliteResolver`` (``rulekit.sources.sqlite``): a SQLite file opened read-only;
- ``PostgresResolver`` (``rulekit.sources.postgres``, extra ``rulekit[postgres]``);
- ``MysqlResolver`` (``rulekit.sources.mysql``, extra ``rulekit[mysql]``), for MariaDB too.

The SQL resolvers run the statement the compiler prepared for their dialect
(``Entity.lookup``); see ``rulekit.sources.sql`` for what they share.

Failures: a resolver raises ``SourceError`` for the failures it knows (cannot connect, timed
out, no such table or column). The checker turns *any* exception from ``fetch`` into a
fail-closed ``lookup_failed`` decision, so nothing here reaches the customer; the message is for
the operator reading the decision log, and names the entity, the table and the cause.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Mapping
from typing import Protocol, runtime_checkable

from rulekit.errors import RulekitError
from rulekit.policy import Lookup
from rulekit.types import TypeSpec

__all__ = [
    "LookupRequest",
    "LookupResult",
    "MemoryResolver",
    "MysqlResolver",
    "PostgresResolver",
    "Resolver",
    "SourceError",
    "SqliteResolver",
    "open_source",
]


@dataclasses.dataclass(frozen=True, slots=True)
class LookupRequest:
    """One batched lookup: ``fields`` of the rows of ``entity`` whose ``key`` is one of ``ids``.

    ``table`` defaults to the entity's name, and is filled in on construction so every resolver
    sees the same, explicit name. The key column is always read, whether or not ``fields``
    lists it. ``ids`` must be distinct strings: the checker deduplicates before asking, and a
    duplicate here means a bug upstream, so it is rejected rather than silently merged.
    ``timeout`` is the budget in seconds for this one lookup.

    ``lookup`` is the entity's compiled lookup (its prepared statements, one per dialect): SQL
    resolvers run its statement and never write SQL of their own. ``tenant`` is the verified
    user's id when the ruleset is tenant-scoped; it comes from the caller's login, never from
    the model or the question. ``key_kind`` is the key field's type: an integer key is bound as
    an integer, and an id that is not one cannot match and is not sent. ``key_type`` is the key
    field's whole type, when known: a key that compares ignoring case (``casefold``) is looked
    up ignoring case, and every row the source matched is re-checked with the key's own
    comparison (``rulekit.compare.key_matches``).
    """

    entity: str
    key: str
    ids: tuple[str, ...]
    fields: tuple[str, ...]
    table: str | None = None
    timeout: float = 2.0
    lookup: Lookup | None = None
    tenant: str | None = None
    key_kind: str | None = None
    key_type: TypeSpec | None = None

    def __post_init__(self) -> None:
        # Lists are accepted for convenience and stored as tuples, so the request stays hashable.
        object.__setattr__(self, "ids", tuple(self.ids))
        object.__setattr__(self, "fields", tuple(self.fields))
        if self.table is None:
            object.__setattr__(self, "table", self.entity)
        for name in ("entity", "key", "table"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name):
                raise TypeError(f"LookupRequest.{name} must be a non-empty string")
        if not all(isinstance(i, str) for i in self.ids):
            raise TypeError(f"LookupRequest.ids for {self.entity!r} must all be strings")
        if len(set(self.ids)) != len(self.ids):
            raise ValueError(f"LookupRequest.ids for {self.entity!r} must be distinct")
        if not all(isinstance(f, str) and f for f in self.fields):
            raise TypeError(f"LookupRequest.fields for {self.entity!r} must be non-empty strings")
        if not self.timeout > 0:
            raise ValueError(f"LookupRequest.timeout must be positive, not {self.timeout!r}")

    @property
    def columns(self) -> tuple[str, ...]:
        """The key, then the requested fields, each once, in request order."""
        return tuple(dict.fromkeys((self.key, *self.fields)))

    def _for_ids(self, ids: tuple[str, ...], timeout: float,
                 tenant: str | None) -> LookupRequest:
        """This request for other ``ids``, ``timeout`` and ``tenant``: the checker's trusted
        path. It keeps one validated request per entity and set of fields, and asks with a
        copy of it per check; its ids are distinct strings by construction, so only the
        timeout, the caller's, is checked again. Public construction always validates."""
        if not timeout > 0:
            raise ValueError(f"LookupRequest.timeout must be positive, not {timeout!r}")
        # A mutable twin turned into a LookupRequest: no __init__, no __post_init__.
        draft = _LookupRequestDraft()
        draft.entity, draft.key, draft.ids, draft.fields = self.entity, self.key, ids, self.fields
        draft.table, draft.timeout, draft.lookup = self.table, timeout, self.lookup
        draft.tenant, draft.key_kind, draft.key_type = tenant, self.key_kind, self.key_type
        draft.__class__ = LookupRequest
        return draft  # type: ignore[return-value]


class _LookupRequestDraft:
    """A mutable twin of ``LookupRequest`` (the same slots, in the same order), for
    ``LookupRequest._for_ids``."""
    __slots__ = LookupRequest.__slots__


# str(key value) -> {column: value} for the rows found; ids with no row are simply absent.
# Each row holds the key and those requested fields the row has. The checker fails a lookup
# closed when a row is filed under an id not asked for, lacks the key, or holds another key
# than the id it is filed under (compared by the key field's type). A field the row does not have
# at all is absent from its mapping, while a field stored as NULL maps to None: the checker
# needs to tell "no such column" (a schema problem) from "no value recorded" (not_found).
LookupResult = Mapping[str, Mapping[str, object]]


class SourceError(RulekitError):
    """A lookup failed: the source could not be opened or read, timed out, or has no such table
    or column. The message names the entity, the table and the cause.

    ``entity`` and ``table`` are kept as attributes too, for the decision log.
    """

    def __init__(self, message: str, *, entity: str | None = None, table: str | None = None):
        super().__init__(message)
        self.entity = entity
        self.table = table


@runtime_checkable
class Resolver(Protocol):
    """Anything that answers a ``LookupRequest``. Implementations must be safe to call from
    several threads at once: the chatbot shares one resolver between its workers."""

    def fetch(self, request: LookupRequest) -> LookupResult: ...


ACCEPTED_FORMS = ("a sqlite:///path/to/file.db URL (sqlite:////abs/path.db for an absolute "
                  "path), a postgresql:// or mysql:// (mariadb://) URL, a path to a .json rows "
                  "file, a dict of rows per entity, or an object with a fetch(request) method")

_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")
_POSTGRES = ("postgres", "postgresql", "postgresql+psycopg", "postgres+psycopg")
_MYSQL = ("mysql", "mariadb", "mysql+pymysql", "mariadb+pymysql")


def open_source(spec: str | os.PathLike | Mapping | Resolver, *, timeout: float = 2.0,
                connect_timeout: float | None = None) -> Resolver:
    """Build a resolver from what a configuration file or a caller hands over.

    - ``"sqlite:///shop.db"`` (relative to the working directory) or ``"sqlite:////srv/shop.db"``
      (absolute): a ``SqliteResolver`` with ``timeout``;
    - a path ending in ``.json``: ``MemoryResolver.from_json``;
    - a mapping ``{"order": [{...}, ...], ...}``: a ``MemoryResolver``;
    - a resolver (anything with ``fetch``): returned as it is;
    - a ``postgresql://`` or ``mysql://`` URL: a resolver with ``timeout`` (each lookup's
      budget) and ``connect_timeout`` (opening a connection, apart from that budget; five
      seconds unless given, or, on PostgreSQL, the URL's own ``connect_timeout``).

    Each call builds a new resolver, with connections of its own: a service calls this once
    and shares the resolver between its checks and threads (``check`` given a URL string
    opens one for that check alone, and closes it after).

    Anything else is a ``ValueError`` (or ``TypeError`` for a value of the wrong type) that lists
    the accepted forms.
    """
    if callable(getattr(spec, "fetch", None)):   # a resolver; cheaper than the Protocol check
        return spec
    if isinstance(spec, Mapping):
        return MemoryResolver(spec)
    if isinstance(spec, os.PathLike):
        spec = os.fspath(spec)
    if not isinstance(spec, str):
        raise TypeError(f"cannot open a source from a {type(spec).__name__}; "
                        f"expected {ACCEPTED_FORMS}")
    if spec.startswith("sqlite:"):
        path, immutable = _sqlite_path(spec)
        return SqliteResolver(path, timeout=timeout, immutable=immutable)
    scheme = _SCHEME.match(spec)
    if scheme and len(scheme.group(1)) > 1:  # one letter is a Windows drive, not a scheme
        name = scheme.group(1).lower()
        if name in _POSTGRES:
            url = spec if "+" not in name else "postgresql" + spec[len(name):]
            return PostgresResolver(url, timeout=timeout, connect_timeout=connect_timeout)
        if name in _MYSQL:
            return MysqlResolver(spec, timeout=timeout, connect_timeout=connect_timeout)
        raise ValueError(f"unknown source scheme {name!r} in {redact_url(spec)!r}; "
                         f"accepted: {ACCEPTED_FORMS}")
    if spec.lower().endswith(".json"):
        return MemoryResolver.from_json(spec)
    hint = f" (did you mean 'sqlite:///{spec}'?)" if spec.lower().endswith((".db", ".sqlite",
                                                                             ".sqlite3")) else ""
    raise ValueError(f"cannot tell what kind of source {spec!r} is{hint}; "
                     f"accepted: {ACCEPTED_FORMS}")


# Query parameters whose value is a secret (or the path to one): shown as ***. Matched
# anywhere in the name, so sslpassword, api_token and ssl_key are all masked.
_SECRET_NAME = re.compile(r"pass|pwd|secret|token|key|auth|credential", re.IGNORECASE)


def redact_url(url: str) -> str:
    """``url`` fit for a reason, a log line or the Sources panel: the password of the user part
    and the value of every secret-looking query parameter (password, passwd, pwd, sslpassword,
    secret, token, key...) replaced by ``***``. Everything else is kept as written."""
    head, hash_, fragment = url.partition("#")
    head, question, query = head.partition("?")
    scheme, slashes, rest = head.partition("://")
    if slashes:
        # The last "@" ends the user part, so a password holding "/" or "@" is masked whole.
        user, at, place = rest.rpartition("@")
        if at and ":" in user:
            head = f"{scheme}://{user.split(':', 1)[0]}:***@{place}"
    if question:
        pairs = []
        for pair in query.split("&"):
            name, equals, value = pair.partition("=")
            pairs.append(f"{name}=***" if equals and _SECRET_NAME.search(name) else pair)
        head += "?" + "&".join(pairs)
    return head + hash_ + fragment


def _sqlite_path(url: str) -> tuple[str, bool]:
    """``sqlite:///rel/x.db`` -> ``rel/x.db``; ``sqlite:////abs/x.db`` -> ``/abs/x.db``; and
    whether the URL ends in ``?immutable=1`` (a snapshot that never changes while open).

    The SQLAlchemy convention, so the same URL works in both. No host part, no in-memory
    database (a read-only empty database can answer nothing), no other query string.
    """
    if not url.startswith("sqlite:///"):
        raise ValueError(f"a SQLite URL is sqlite:/// followed by the file's path, not {url!r} "
                         "(sqlite:///rel/path.db, or sqlite:////abs/path.db)")
    path = url[len("sqlite:///"):]
    immutable = path.endswith("?immutable=1")
    if immutable:
        path = path[:-len("?immutable=1")]
    if not path or path == ":memory:":
        raise ValueError(f"{url!r} names no database file; give sqlite:///path/to/file.db")
    if "?" in path:
        raise ValueError(f"{url!r}: the only query parameter is immutable=1; the database is "
                         "always opened read-only, and the timeout is passed as timeout=")
    return path, immutable


# Imported last: both modules import the names defined above.
from rulekit.sources.memory import MemoryResolver  # noqa: E402
from rulekit.sources.sqlite import SqliteResolver  # noqa: E402
from rulekit.sources.postgres import PostgresResolver  # noqa: E402
from rulekit.sources.mysql import MysqlResolver  # noqa: E402
