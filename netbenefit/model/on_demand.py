"""A result's tables built when first read: :class:`OnDemand` (a table from columns, or from a
function), :class:`ColumnsOnDemand` (its columns computed too when first read) and the field of
:class:`netbenefit.model.result.Result` that builds one on its first read and keeps it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd


class OnDemand:
    """A table of a :class:`Result` not built yet: ``build(*args)`` builds it when first read.

    ``columns`` (column name -> sequence), when given, are the table's values, so that
    :meth:`Result.to_dict` and :meth:`Result.summary` read them without building a DataFrame.
    """

    __slots__ = ("build", "args", "columns")

    def __init__(self, build: Callable[..., Any], *args: Any, columns: Mapping[str, Any] | None = None):
        self.build, self.args, self.columns = build, args, columns

    def __call__(self) -> Any:
        return self.build(*self.args)


class ColumnsOnDemand(OnDemand):
    """An :class:`OnDemand` table whose columns are computed too when first read:
    ``build_columns(*args)`` gives them (column name -> sequence), for facts that neither the
    ratio nor the checks need (the cash flows, the clawback schedule, the benefits by tax).
    ``index``: the column that becomes the DataFrame's index (its first column in ``columns``)."""

    __slots__ = ("_build_columns", "_columns", "_dtypes", "_index")

    def __init__(self, build_columns: Callable[..., Mapping[str, Any]], *args: Any, dtypes=None, index=None):
        self.build, self.args = table, args
        self._build_columns, self._columns, self._dtypes, self._index = build_columns, None, dtypes, index

    @property
    def columns(self) -> Mapping[str, Any]:
        if self._columns is None:
            self._columns = self._build_columns(*self.args)
        return self._columns

    def __call__(self) -> Any:
        frame = table(self.columns, self._dtypes)
        return frame.set_index(self._index) if self._index is not None else frame


def table(columns: Mapping[str, Any], dtypes: Mapping[str, type] | None = None) -> pd.DataFrame:
    """A DataFrame of ``columns``, cast to ``dtypes`` (pandas is imported here, when a table is read)."""
    import pandas as pd

    frame = pd.DataFrame(dict(columns))
    return frame.astype(dict(dtypes)) if dtypes else frame


def table_on_demand(columns: Mapping[str, Any], dtypes: Mapping[str, type] | None = None) -> OnDemand:
    """An :class:`OnDemand` table of ``columns`` (see :func:`table`)."""
    return OnDemand(table, columns, dtypes, columns=columns)


class TableField:
    """A field of :class:`Result` that may be given as an :class:`OnDemand`: built when first read,
    then kept (the result is frozen, so the table is the same on every read)."""

    def __init__(self, name: str, default: Any):
        self.name, self.default = name, default

    def __get__(self, instance, owner=None):
        if instance is None:
            if self.default is NO_DEFAULT:
                raise AttributeError(self.name)
            return self.default
        value = instance.__dict__[self.name]
        if isinstance(value, OnDemand):
            value = value()
            instance.__dict__[self.name] = value
        if type(value).__name__ == "DataFrame" and type(value).__module__.startswith("pandas"):
            from .tables import ResultTable  # pandas: deferred past start-up

            value = ResultTable.of(value, unknown="USD" if self.name == "cashflows" else "")
            instance.__dict__[self.name] = value
        return value

    def __set__(self, instance, value) -> None:  # reached only from __init__ (object.__setattr__)
        instance.__dict__[self.name] = value


NO_DEFAULT = object()
