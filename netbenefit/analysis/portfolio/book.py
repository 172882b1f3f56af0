"""The :class:`Portfolio`: several evaluated applications by New Jersey State fiscal year.

Every application's amounts are placed in fiscal years by :func:`netbenefit.model.fiscal.by_fiscal_year`
(the timing point of each project year; benefits as the test counts them; nominal USD), so the
fiscal-year totals add up to the sum of the applications' requested credits and counted benefits.

The cap: the statute's words on the Emerge cap (section 98 of P.L.2020, c.156, C.34:1B-362) could
not be read, and the figure the Office of Legislative Services states is shared with the Aspire
program (``netbenefit/law/parameters/program_caps.yaml``, graded secondary). A headroom is therefore
computed only against a cap the user gives, on the credits *awarded* in each fiscal year: the
requested credits of the eligible applications approved in it. An application that is not
eligible (it fails a check of section 71) awards nothing: ``requested`` holds every application's
request, ``awarded`` the eligible ones', and the cap counts awards. Every output says so.

Every table (``fiscal_years``, ``applications``, ``by_application``, the wide tables) shows in a
notebook with money as dollars and ratios as percents (:class:`netbenefit.model.tables.ResultTable`),
the values unchanged.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ...errors import ScenarioError
from ...io.writing import written_file
from ...labels import money_exact
from ...law.parameters import PARAMETERS, parameter
from ...model.evaluate import evaluate
from ...model.fiscal import BENEFIT_COLUMNS, PLACEMENT_NOTE, state_fiscal_year
from ...model.result import Result
from ...model.scenario import Scenario
from ...model.tables import ResultTable

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

#: Columns of :attr:`Portfolio.fiscal_years` (after its index, ``fiscal_year``).
FISCAL_YEAR_COLUMNS = (
    "credits",
    *BENEFIT_COLUMNS,
    "benefits",
    "net_benefits",
    "cumulative_credits",
    "cumulative_benefits",
    "approved",
    "approved_passing",
    "requested",
    "awarded",
    "cap",
    "cap_headroom",
)
#: Columns of :attr:`Portfolio.applications`.
APPLICATION_COLUMNS = (
    "application",
    "source",
    "approval_date",
    "approval_fiscal_year",
    "requested_credits",
    "counted_benefits",
    "ratio",
    "threshold",
    "threshold_clause",
    "passes",
    "whole_project_ratio",
    "eligible",
    "first_fiscal_year",
    "last_fiscal_year",
)


#: The unit of each column of the portfolio's tables that has no label of its own, for their display.
PORTFOLIO_UNITS = {
    **dict.fromkeys(
        (
            "credits",
            *BENEFIT_COLUMNS,
            "benefits",
            "net_benefits",
            "cumulative_credits",
            "cumulative_benefits",
            "requested",
            "awarded",
            "cap",
            "cap_headroom",
            "requested_credits",
            "counted_benefits",
            *(f"{name}_{region}" for name in ("awarded", "cap", "cap_headroom") for region in ("north", "south")),
        ),
        "USD",
    ),
    **dict.fromkeys(
        ("approved", "approved_passing", "approval_fiscal_year", "first_fiscal_year", "last_fiscal_year"), ""
    ),
    "fiscal_year": "",
}


def _shown(frame: pd.DataFrame, *, unknown: str = "") -> pd.DataFrame:
    """``frame`` shown by unit in a notebook (its values and ``attrs`` unchanged)."""
    return ResultTable.of(frame, unknown=unknown, units=PORTFOLIO_UNITS)


def cap_note(cap: float | None) -> str:
    """What the outputs say of the cap (module docstring)."""
    stated = PARAMETERS["aspire_and_emerge_annual_award_cap"]
    known = (
        f"the statute's words on the Emerge cap (P.L.2020, c.156, s.98, C.34:1B-362) could not be read; "
        f"the Office of Legislative Services states {money_exact(stated.value)} a year for Aspire and Emerge together "
        f"({stated.source})"
    )
    if cap is None:
        return f"No cap given: no headroom computed; {known}."
    return (
        f"Cap {money_exact(cap)} per State fiscal year on the credits awarded in it (eligible applications), as "
        f"given by the user; {known}."
    )


def _cap_and_regions_note(cap: float | None, regions: bool) -> str:
    """What a portfolio says of the cap, and of its regional split when it has ``regions``."""
    return cap_note(cap) + (" " + regions_note() if regions else "")


#: The regions of the State and the parameter of each one's part of the cap.
REGIONAL_CAPS = {
    "north": "aspire_and_emerge_annual_award_cap_north",
    "south": "aspire_and_emerge_annual_award_cap_south",
}
REGIONS = tuple(REGIONAL_CAPS)


def regions_note() -> str:
    """What a portfolio with ``regions`` says of the regional split of the cap."""
    north, south = (money_exact(parameter(REGIONAL_CAPS[r])) for r in REGIONS)
    return (
        f"Regional split of the Aspire and Emerge cap as secondary sources summarise it (the statute's words not "
        f"read): north {north}, south {south} a year, shared by the two programs; awards counted by each "
        "application's location.region."
    )


def _regional_columns(
    results: Sequence[Result],
    applications: pd.DataFrame,
    awards: pd.Series,
    totals: pd.DataFrame,
    years: pd.Index,
) -> list[str]:
    """Add ``awarded_north``, ``cap_north``, ``cap_headroom_north`` (and the same for the south)
    to ``totals``; returns their names. An eligible application without a region is an error."""
    regions = []
    for result, eligible in zip(results, applications["eligible"], strict=True):
        region: str | None = result.scenario.location.region
        if region is None and eligible:
            raise ScenarioError(
                str(result.scenario.source), "location.region", "give north or south: the regional cap needs it"
            )
        regions.append(region or "")
    columns = []
    for region in REGIONS:
        mine = awards.where([r == region for r in regions], 0.0)
        totals[f"awarded_{region}"] = (
            mine.groupby(applications["approval_fiscal_year"]).sum().reindex(years, fill_value=0.0)
        )
        totals[f"cap_{region}"] = float(parameter(REGIONAL_CAPS[region]))
        totals[f"cap_headroom_{region}"] = totals[f"cap_{region}"] - totals[f"awarded_{region}"]
        columns += [f"awarded_{region}", f"cap_{region}", f"cap_headroom_{region}"]
    return columns


def _labels(results: Sequence[Result]) -> list[str]:
    labels: list[str] = []
    for result in results:
        label, n = result.name, 2
        while label in labels:
            label, n = f"{result.name} ({n})", n + 1
        labels.append(label)
    return labels


#: The largest cap taken: a trillion times the largest program (far above any State budget), so
#: that every chart, workbook and sum of it stays a finite number. [USD]
MAX_CAP = 1e15  # not a statutory number: a bound before any drawing


def check_cap(cap: Any) -> float | None:
    """The cap as given (None: no cap), checked: a finite number of dollars from 1,000 to
    :data:`MAX_CAP`, or 0. Raises ScenarioError naming ``--cap``."""
    if cap is None:
        return None
    if isinstance(cap, bool) or not isinstance(cap, int | float | np.integer | np.floating):
        raise ScenarioError("--cap", "", f"give the cap as a number of dollars, not {cap!r}")
    try:
        cap = float(cap)
    except OverflowError:  # an int beyond any float (10**400)
        cap = math.inf
    if cap > MAX_CAP:
        raise ScenarioError("--cap", "", f"the cap must be at most {MAX_CAP:,.0f} [USD], not {cap!r}")
    if not math.isfinite(cap) or cap < 0:
        raise ScenarioError("--cap", "", f"the cap must be a finite amount >= 0 [USD], not {cap!r}")
    if 0 < cap < 1_000:  # not a statutory number: a cap in millions given by mistake
        raise ScenarioError("--cap", "", f"the cap is in dollars: did you mean {cap * 1e6:,.0f}?")
    return cap


def scenario_files(paths: Iterable[str | Path]) -> list[Path]:
    """The scenario files of ``paths``: a folder stands for its ``*.yaml`` files, in name order (not
    its subfolders). Raises ScenarioError for a folder without any."""
    files = []
    for path in map(Path, paths):
        if path.is_dir():
            found = sorted(p for p in path.glob("*.yaml") if p.is_file())
            if not found:
                raise ScenarioError(str(path), "", "the folder holds no scenario file (*.yaml)")
            files.extend(found)
        else:
            files.append(path)
    return files


def _items(scenarios: Any) -> list[str | Path | Scenario | Result]:
    """Paths (a folder for its scenario files), Scenario or Result objects, one or several."""
    if isinstance(scenarios, str | Path | Scenario | Result):
        scenarios = [scenarios]
    if isinstance(scenarios, Mapping) or not isinstance(scenarios, Iterable) or isinstance(scenarios, bytes):
        raise ScenarioError(
            "portfolio", "", f"not a file or a list of files (nor of scenarios or results): {type(scenarios).__name__}"
        )
    items: list[str | Path | Scenario | Result] = []
    for i, item in enumerate(scenarios):
        if not isinstance(item, str | Path | Scenario | Result):
            raise ScenarioError(
                "portfolio", str(i), f"not a file, a Scenario or a Result: {type(item).__name__} {item!r:.60}"
            )
        items.extend(scenario_files([item]) if isinstance(item, str | Path) else [item])
    return items


def _evaluate(item: Any) -> Result:
    return item if isinstance(item, Result) else evaluate(item)


@dataclass(frozen=True, eq=False)  # tables inside: compared by identity
class Portfolio:
    """Several applications by State fiscal year (module docstring).

    Attributes
    ----------
    results : tuple of Result
    labels : tuple of str
        Each application's name, made distinct (``"Name (2)"``).
    cap : float or None
        The user's cap on the credits awarded in a fiscal year. [USD]
    by_application : DataFrame
        One row per application and fiscal year: ``fiscal_year``, ``application``, ``credits``,
        the benefits by tax, ``benefits``. [USD, nominal]
    fiscal_years : DataFrame
        Indexed by ``fiscal_year``: :data:`FISCAL_YEAR_COLUMNS`. ``approved``,
        ``approved_passing``: applications approved in the year (all, and those passing the net
        benefit test); ``requested``: their requested credits; ``awarded``: the requested credits
        of the eligible ones (an application that is not eligible awards nothing); ``cap`` and
        ``cap_headroom`` (cap - awarded) only with a cap (else missing).
    applications : DataFrame
        One row per application: :data:`APPLICATION_COLUMNS`.
    """

    results: tuple
    labels: tuple[str, ...]
    cap: float | None
    by_application: pd.DataFrame
    fiscal_years: pd.DataFrame
    applications: pd.DataFrame
    regions: bool = False  # the regional split of the cap counted (Portfolio.of(..., regions=True))

    @classmethod
    def of(
        cls,
        scenarios: str | Path | Scenario | Result | Iterable[str | Path | Scenario | Result],
        *,
        cap: float | None = None,
        regions: bool = False,
    ) -> Portfolio:
        """The portfolio of ``scenarios``; ``cap``: the user's cap on the credits awarded in a fiscal
        year; ``regions``: also the credits awarded in the north and the south of the State against
        the regional split of the Aspire and Emerge cap (secondary), by each application's
        ``location.region`` (every eligible application must give it)."""
        import pandas as pd

        cap = check_cap(cap)
        results = tuple(_evaluate(item) for item in _items(scenarios))
        if not results:
            raise ScenarioError("portfolio", "", "give at least one scenario")
        labels = _labels(results)
        parts, rows = [], []
        for result, label in zip(results, labels, strict=True):
            table = result.by_fiscal_year()
            part = table[["credits", *BENEFIT_COLUMNS, "benefits"]].reset_index()
            part.insert(1, "application", label)
            parts.append(part)
            approval = result.scenario.approval
            rows.append(
                {
                    "application": label,
                    "source": str(result.scenario.source),
                    "approval_date": approval.isoformat(),
                    "approval_fiscal_year": state_fiscal_year(approval),
                    "requested_credits": float(result.requested_credits),
                    "counted_benefits": math.fsum(table["benefits"]),
                    "ratio": float(result.ratio),  # the test that decides, 71(a)(5)
                    "threshold": float(result.threshold),
                    "threshold_clause": result.threshold_clause,
                    "passes": bool(result.passes),
                    "whole_project_ratio": float(result.whole_project_ratio),
                    "eligible": bool(result.eligible),
                    "first_fiscal_year": int(table.index.min()),
                    "last_fiscal_year": int(table.index.max()),
                }
            )
        by_application = pd.concat(parts, ignore_index=True)
        applications = pd.DataFrame(rows, columns=list(APPLICATION_COLUMNS))
        _check_finite(by_application, applications)  # before any sum: never inf, never a numpy warning
        first = int(min(by_application["fiscal_year"].min(), applications["approval_fiscal_year"].min()))
        last = int(max(by_application["fiscal_year"].max(), applications["approval_fiscal_year"].max()))
        years = pd.RangeIndex(first, last + 1, name="fiscal_year")
        money = ["credits", *BENEFIT_COLUMNS, "benefits"]
        totals = by_application.groupby("fiscal_year")[money].sum().reindex(years, fill_value=0.0)
        totals["net_benefits"] = totals["benefits"] - totals["credits"]
        totals["cumulative_credits"] = totals["credits"].cumsum()
        totals["cumulative_benefits"] = totals["benefits"].cumsum()
        by_approval = applications.groupby("approval_fiscal_year")
        totals["approved"] = by_approval.size().reindex(years, fill_value=0).astype(int)
        totals["approved_passing"] = by_approval["passes"].sum().reindex(years, fill_value=0).astype(int)
        totals["requested"] = by_approval["requested_credits"].sum().reindex(years, fill_value=0.0)
        # an application that is not eligible awards nothing; the cap counts awards
        awards = applications["requested_credits"].where(applications["eligible"], 0.0)
        totals["awarded"] = awards.groupby(applications["approval_fiscal_year"]).sum().reindex(years, fill_value=0.0)
        totals["cap"] = np.nan if cap is None else cap
        totals["cap_headroom"] = totals["cap"] - totals["awarded"]
        columns = list(FISCAL_YEAR_COLUMNS)
        if regions:
            columns += _regional_columns(results, applications, awards, totals, years)
        totals = totals[columns]
        totals.attrs["conventions"] = PLACEMENT_NOTE.format(timing=_timings(results))
        totals.attrs["cap"] = _cap_and_regions_note(cap, regions)
        return cls(results, tuple(labels), cap, _shown(by_application), _shown(totals), _shown(applications), regions)

    # --- facts ---------------------------------------------------------------------------------
    @property
    def passing(self) -> int:
        """How many applications pass the net benefit test, 71(a)(5)."""
        return int(self.applications["passes"].sum())

    @property
    def failing(self) -> int:
        return len(self.results) - self.passing

    @property
    def eligible(self) -> int:
        """How many applications pass every check of s.71."""
        return int(self.applications["eligible"].sum())

    @property
    def requested_credits(self) -> float:
        """The applications' requested credits, nominal, summed. [USD]"""
        return math.fsum(self.applications["requested_credits"])

    @property
    def counted_benefits(self) -> float:
        """The applications' counted benefits, nominal, summed. [USD]"""
        return math.fsum(self.applications["counted_benefits"])

    @property
    def cap_note(self) -> str:
        return _cap_and_regions_note(self.cap, self.regions)

    def credits_table(self) -> pd.DataFrame:
        """Requested credits by fiscal year (rows) and application (columns). [USD]"""
        return self._wide("credits")

    def benefits_table(self) -> pd.DataFrame:
        """Counted benefits by fiscal year (rows) and application (columns). [USD]"""
        return self._wide("benefits")

    def _wide(self, column: str) -> pd.DataFrame:
        wide = self.by_application.pivot(index="fiscal_year", columns="application", values=column)
        table = wide.reindex(index=self.fiscal_years.index, columns=list(self.labels)).fillna(0.0)
        return _shown(table, unknown="USD")

    def summary(self) -> str:
        """A short plain-text account."""
        lines = [
            f"{len(self.results)} applications: {self.passing} pass the net benefit test, {self.failing} fail; "
            f"{self.eligible} eligible",
            f"requested credits {money_exact(self.requested_credits)}; "
            f"counted benefits {money_exact(self.counted_benefits)} "
            f"(nominal USD, fiscal years {self.fiscal_years.index[0]}-{self.fiscal_years.index[-1]})",
            self.cap_note,
        ]
        if self.cap is not None:
            short = self.fiscal_years[self.fiscal_years["cap_headroom"] < 0]
            if len(short):
                years = ", ".join(f"FY{year}" for year in short.index)
                lines.append(f"awards above the cap in {years}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.summary()

    def __repr__(self) -> str:
        return (
            f"<Portfolio of {len(self.results)} applications: {self.passing} pass, {self.failing} fail; "
            f"requested credits {money_exact(self.requested_credits)}, counted benefits "
            f"{money_exact(self.counted_benefits)}>"
        )

    # --- views ---------------------------------------------------------------------------------
    def _repr_html_(self) -> str:
        """Rich display in Jupyter: :func:`netbenefit.views.portfolio_files.portfolio_html`."""
        from ...views.portfolio_files import portfolio_html

        return portfolio_html(self)

    def plot(self, kind: str = "credits_by_application", ax: Axes | None = None) -> Axes:
        """A chart of :data:`netbenefit.views.charts.portfolio.PORTFOLIO_CHARTS`; returns the Axes."""
        from ...views.charts.portfolio import PORTFOLIO_CHARTS

        if kind not in PORTFOLIO_CHARTS:
            raise ValueError(f"unknown chart {kind!r}; use one of {', '.join(PORTFOLIO_CHARTS)}")
        return PORTFOLIO_CHARTS[kind](self, ax=ax)

    def to_excel(self, path: str | Path) -> Path:
        """The workbook of :func:`netbenefit.views.portfolio_files.write_portfolio_workbook`. Atomic."""
        with written_file("to_excel", path) as target:
            from ...views.portfolio_files import write_portfolio_workbook

            return write_portfolio_workbook(self, target)

    def to_html(self, path: str | Path) -> Path:
        """The self-contained page of :func:`netbenefit.views.portfolio_files.write_portfolio_page`. Atomic."""
        with written_file("to_html", path) as target:
            from ...views.portfolio_files import write_portfolio_page

            return write_portfolio_page(self, target)


def _check_finite(by_application: pd.DataFrame, applications: pd.DataFrame) -> None:
    """Refuse applications whose amounts sum to more than a number can hold (three applications
    of $1e307 a year), before anything is summed: the totals are never written as ``inf``. Each
    application is finite (its evaluation checks that); their sum may not be. Every amount is
    >= 0, so when the grand total of a column is finite, so is every total and running total."""
    columns = {
        "credits": by_application["credits"],
        "benefits": by_application["benefits"],
        "requested_credits": applications["requested_credits"],
        "counted_benefits": applications["counted_benefits"],
    }
    for name, values in columns.items():
        try:
            total = math.fsum(abs(float(value)) for value in values)
        except OverflowError:  # fsum's own intermediate overflow
            total = math.inf
        if not math.isfinite(total):
            raise ScenarioError(
                "portfolio",
                "",
                f"the applications' {name.replace('_', ' ')} sum to more than a number can hold (infinity); "
                "give fewer or smaller applications",
            )


def _timings(results: Sequence[Result]) -> str:
    timings = sorted({result.scenario.timing for result in results})
    return " / ".join(timings)
