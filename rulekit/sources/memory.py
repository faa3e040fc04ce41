"""Rows held in memory: for tests, demos, and small catalogues shipped as a JSON file.

It answers exactly as the SQL resolvers do, so a ruleset tested against a JSON fixture behaves
the same against the database:

- a row matches an id when ``str(row[key]) == id``; a row without the key, or with a null key,
  matches nothing (as ``NULL IN (...)`` is never true in SQL). A key that compares ignoring
  case (``casefold``) matches when the lower cases are equal and the key's own comparison
  agrees, as ``LOWER(key) IN (...)`` and the re-check do in SQL;
- the result holds the key and the requested fields only;
- a requested field that a row does not have is *absent* from that row's mapping, while a field
  stored as null is present with the value None. The checker needs the difference: absent means
  the data has no such column (a schema problem), None means nothing is recorded (not_found);
- under a tenant, a row is seen only when its tenant column holds the caller's id, as the SQL
  WHERE clause does; a row asked for that holds no value there is an error naming it, since
  a table in memory must carry the column the SQL reads but never returns;
- two rows with the same key are an error, not a choice: a fact that could be either of two
  values cannot be verified. Under a casefold key, so are two keys differing only in case.

The rows are deep-copied when the resolver is built and never changed after, so later edits to
the caller's dicts do not leak in, and concurrent ``fetch`` calls need no lock.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType

from rulekit.sources import LookupRequest, LookupResult, SourceError
from rulekit.sources.sql import KeyFiler, check_tenant

_SCALARS = (str, int, float, bool, type(None))

Row = Mapping[str, object]


class MemoryResolver:
    """Answer lookups from ``{"order": [{"id": "ord_1", ...}, ...], "customer": [...]}``.

    The top-level keys are table names (by default, entity names). Raises ``ValueError`` naming
    the offending place as a JSON path (``$.order[3]``) when the rows are not of that shape.
    """

    __slots__ = ("_tables", "_origin")

    def __init__(self, rows: Mapping[str, Sequence[Mapping]], *, origin: str = "<memory>"):
        self._origin = origin
        self._tables: Mapping[str, tuple[Row, ...]] = MappingProxyType(_copy_tables(rows))

    @classmethod
    def from_json(cls, path: str | Path) -> "MemoryResolver":
        """Load rows from a JSON file of the same shape as the constructor's argument.

        Every problem, from a missing file to a row that is not an object, is a ``SourceError``
        whose message starts with the file's path.
        """
        try:
            text = Path(path).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise SourceError(f"{path}: no such rows file") from None
        except OSError as exc:
            raise SourceError(f"{path}: cannot read the rows file: {exc.strerror}") from None
        except UnicodeDecodeError as exc:
            raise SourceError(f"{path}: the rows file is not UTF-8 (byte {exc.start})") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise SourceError(f"{path}:{exc.lineno}:{exc.colno}: invalid JSON: {exc.msg}") from None
        try:
            return cls(data, origin=str(path))
        except ValueError as exc:
            raise SourceError(f"{path}: {exc}") from None

    @property
    def tables(self) -> tuple[str, ...]:
        return tuple(self._tables)

    @property
    def rows(self) -> Mapping[str, tuple[Row, ...]]:
        """Every table's rows as copied when the resolver was built, each a read-only mapping."""
        return self._tables

    def fetch(self, request: LookupRequest) -> LookupResult:
        rows = self._tables.get(request.table)
        if rows is None:
            known = ", ".join(sorted(self._tables)) or "none"
            raise SourceError(f"{self._origin}: no table {request.table!r} for entity "
                              f"{request.entity!r} (tables: {known})",
                              entity=request.entity, table=request.table)
        filer = KeyFiler(request, self._origin, f"table {request.table!r}")
        columns = request.columns
        # A tenant-scoped lookup sees only the rows whose tenant column holds the caller's id.
        # A row the lookup would return with no value there is an error, not a row of nobody's:
        # rows copied as the SQL returns them lack the column (only the WHERE reads it), and
        # dropping them said "no invoice with id INV-1042" of an invoice that is right there.
        scope = request.lookup.tenant_column if request.lookup is not None else None
        tenant = request.tenant
        shared = request.lookup is not None and request.lookup.shared   # every user's rows
        if tenant is not None:
            check_tenant(tenant, f"entity {request.entity!r}", request.entity)
        folds = filer.folded is not None
        wanted = filer.wanted
        for index, row in enumerate(rows):
            value = row.get(request.key)
            if value is None:
                continue
            if folds:
                idents = filer.ids_for(value)
                if not idents:
                    continue
            elif str(value) in wanted:
                idents = (str(value),)
            else:
                continue
            if tenant is not None and not shared:
                held = None if scope is None else row.get(scope)
                if held is None and scope is not None:
                    raise SourceError(
                        f"{self._origin}: rows of {request.entity} carry no {scope!r} value "
                        f"($.{request.table}[{index}]); each row must carry the tenant column, "
                        "as the SQL source's rows do: the tenant-scoped lookup sees a row only "
                        f"when its {scope!r} is the verified user's id",
                        entity=request.entity, table=request.table)
                if held is None or str(held) != tenant:
                    continue
            filer.file(idents, value, {c: _detach(row[c]) for c in columns if c in row})
        return filer.found


def _copy_tables(rows: object) -> dict[str, tuple[Row, ...]]:
    if not isinstance(rows, Mapping):
        raise ValueError(f"$: expected an object of tables, not {_kind(rows)}")
    tables: dict[str, tuple[Row, ...]] = {}
    for name, table in rows.items():
        where = f"$.{name}"
        if not isinstance(name, str):
            raise ValueError(f"$: table names must be strings, not {_kind(name)}")
        if isinstance(table, (str, bytes)) or not isinstance(table, Sequence):
            raise ValueError(f"{where}: a table must be a list of rows, not {_kind(table)}")
        copied = []
        for index, row in enumerate(table):
            if not isinstance(row, Mapping):
                raise ValueError(f"{where}[{index}]: a row must be an object, not {_kind(row)}")
            for column in row:
                if not isinstance(column, str):
                    raise ValueError(f"{where}[{index}]: column names must be strings, "
                                     f"not {_kind(column)}")
            copied.append(MappingProxyType(copy.deepcopy(dict(row))))
        tables[name] = tuple(copied)
    return tables


def _detach(value: object) -> object:
    """Scalars are shared; anything mutable is copied, so a caller cannot edit our rows."""
    return value if isinstance(value, _SCALARS) else copy.deepcopy(value)


def _kind(value: object) -> str:
    """Name a value's type in JSON's words, since that is what most rows are written in."""
    names = {dict: "an object", list: "a list", tuple: "a list", str: "a string",
             int: "a number", float: "a number", bool: "a boolean", type(None): "null"}
    for kind, name in names.items():
        if type(value) is kind:
            return name
    return f"a {type(value).__name__}"
