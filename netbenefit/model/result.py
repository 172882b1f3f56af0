"""The result of evaluating one scenario: facts, tables, and the JSON contract."""

from __future__ import annotations

import json
import warnings
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import numpy as np

from ..io.writing import written_file
from ..labels import money, net_benefit_headline, ratio_verdict
from ..law.rules.clawback import SCHEDULE_COLUMNS
from ..law.rules.net_benefit import meets_threshold
from .fiscal import by_fiscal_year
from .on_demand import NO_DEFAULT, OnDemand, TableField
from .result_summary import summary
from .scenario import Scenario

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

    from ..law.rules.decision import Comparison, Decision
    from .cashflows import Computation


@dataclass(frozen=True)
class Result:
    """Everything :func:`netbenefit.evaluate` found for one scenario.

    Money is nominal USD; present values are at approval. Tables:

    - ``checks``: one row per s.71 check (``id``, ``passed``, ``message``), in statute order;
    - ``phase_tests``: one row per cumulative net benefit test (initial phase, then 1..k);
    - ``cashflows``: one row per project year (jobs, wages, each stream, weights, discount
      factors, credits, present values);
    - ``streams``: the same streams in long form, by phase, source (operations, construction,
      explicit) and effect (direct, indirect_and_induced), with weights and present values;
    - ``repayment_schedule``: repayment owed after maintaining m extended years;
    - ``award_calculation``: the section 75 build-up of the credit, step by step, for each phase
      whose award uses the calculator (:func:`netbenefit.law.award.award_table`); None otherwise.
      It is not part of the JSON contract.
    """

    scenario: Scenario
    name: str
    eligible: bool
    pv_benefits: float  # [USD] whole project, counted window
    pv_credits: float  # [USD] whole project
    #: The ratio of the test that decides 71(a)(5): of the cumulative tests (the initial phase alone,
    #: then phases 1..k), the one with the lowest ratio, the earliest on a tie; ``passes`` is exactly
    #: whether it meets the threshold. For a project without later phases, pv_benefits / pv_credits.
    #: The whole project's ratio is ``whole_project_ratio``.
    ratio: float
    threshold: float
    threshold_clause: str
    passes: bool
    discount_rate: float
    checks: pd.DataFrame
    capital_investment_minimum: float
    capital_investment: float  # initial phase, nominal, all years
    infrastructure_fund_donation: float
    jobs_clause: str | None
    retained_jobs_eligible: bool
    phase_tests: pd.DataFrame
    extended_years: int
    extension_counted: bool
    incremental_credit: float
    repayment_schedule: pd.DataFrame
    pv_benefits_without_extension: float
    requested_credits: float  # nominal, whole project
    #: The requested credits scaled alike until every test of 71(a)(5) passes, PV:
    #: pv_credits x max(0, the least cumulative ratio / threshold) (pv_benefits / threshold without
    #: phases). Not the most another allocation across the phases could carry. [USD]
    max_credit_pv: float
    excluded_streams: tuple[str, ...]
    commitment_period_years: float  # initial phase
    cashflows: pd.DataFrame = field(repr=False)
    streams: pd.DataFrame = field(repr=False)
    #: The model's arrays the tables are built from (:class:`netbenefit.model.cashflows.Computation`), kept
    #: so that the workbook reads its streams without running the model again.
    computation: Computation = field(repr=False, compare=False)
    award_calculation: pd.DataFrame | None = field(default=None, repr=False)  # section 75, netbenefit.law.award
    #: Counted benefits by tax: columns ``tax``, ``nominal``, ``pv`` [USD]; pv adds up to pv_benefits.
    benefits_by_tax: pd.DataFrame | None = field(default=None, repr=False)
    #: Amount at risk by years maintained: ``years_maintained``, ``credits_received``, the statute's
    #: range ``recapture_none`` ... ``recapture_all`` (C.34:1B-341(a)(4)) around the rule's
    #: ``recapture``, ``interest``, ``extension_repayment``, ``total``, ``pv_total`` [USD].
    clawback_schedule: pd.DataFrame | None = field(default=None, repr=False)
    #: Why the clawback schedule is empty ("" where it is not).
    clawback_note: str = ""
    #: The ratio over the commitment periods as the scenario states them, where the 300/200 percent
    #: test counted the defined ones instead (71(a)(5)(a)/(b)); else equal to ``ratio``.
    ratio_as_given: float | None = None
    #: Plausibility warnings on the scenario's inputs, one line each.
    warnings: tuple[str, ...] = ()
    #: Conventions the model applied that the scenario did not state (a tax year outside a schedule's dates).
    conventions: tuple[str, ...] = ()
    #: pv_benefits / threshold of the whole project: ``max_credit_pv`` before it counted every
    #: cumulative test (the same for a project without later phases).
    max_credit_pv_whole_project: float | None = None
    #: Each check as decided, by id (:class:`netbenefit.law.rules.decision.Decision`): the comparisons
    #: made and the one that decided. Sentences, headlines and the JSON are written from these.
    decisions: Mapping[str, Decision] = field(default_factory=dict, repr=False, compare=False)
    #: The cumulative test whose incremental credit ``repayment_schedule`` repays (``"phases 1"``),
    #: 71(a)(5)(d): its "years maintained" are extended years of that test's phases. None: nothing to repay.
    extension_test: str | None = None
    #: The same repayment by phase, each phase's extended years on its own clock: rows
    #: (phase, years_maintained, repayment) [USD].
    repayment_by_phase: tuple = ()
    #: pv_benefits / pv_credits of the whole project (the last cumulative test); ``ratio`` for a
    #: project without later phases.
    whole_project_ratio: float | None = None
    #: The ratio of the same tests without the elected extension (the lowest), and whether they all
    #: pass; ``ratio`` and ``passes`` where no extension counts, 71(a)(5)(d).
    ratio_without_extension: float | None = None
    passes_without_extension: bool | None = None
    #: Why ``max_credit_pv`` is 0 ("" where it is not).
    max_credit_pv_note: str = ""

    @property
    def net_benefit_decision(self) -> Decision:
        """The 71(a)(5) record: every cumulative test and the one that decides."""
        return self.decisions["71(a)(5)"]

    @property
    def deciding_test(self) -> Comparison:
        """The 71(a)(5) test that decides (:class:`netbenefit.law.rules.decision.Comparison`): for a
        phased project the cumulative test with the lowest ratio, the earliest on a tie (it also
        binds ``max_credit_pv``); for a project without later phases, its one test."""
        decided = self.net_benefit_decision.decided_by
        assert decided is not None  # 71(a)(5) always decides: its record has a deciding test
        return decided

    def verdict(self, digits: int = 1) -> str:
        """:meth:`headline` after what it states: ``"ratio 491.6% vs 400% threshold (71(a)(5)):
        passes"``, or for a phased project ``"test phases 1: 254.8% vs 300% threshold ..."``."""
        return f"{'test' if self._phased() else 'ratio'} {self.headline(digits)}"

    @property
    def deciding_phases(self) -> tuple[int, ...]:
        """The phases of :attr:`deciding_test`, from 1: ``(1,)`` for phase 1 alone, ``(1, 2)`` for phases 1+2."""
        return tuple(range(1, self.net_benefit_decision.deciding + 2))

    @property
    def margin(self) -> float:
        """The deciding test's ratio minus the threshold (multiples; 0.0159 is 1.59 percentage points)."""
        return self.deciding_test.margin

    @property
    def extension_decides(self) -> bool:
        """Whether the project passes only because of its elected extended commitment, 71(a)(5)(d):
        it passes with it, and the same tests without it fail."""
        return bool(self.net_benefit_decision.facts.get("extension_decides", False))

    def extension_words(self, digits: int = 1) -> str:
        """Where the pass rests on the elected extension, what the test gives without it:
        ``"passes only with the elected 5-year extended commitment, 71(a)(5)(d): without it 372.2% <
        400%, fails"``; "" otherwise."""
        if not self.extension_decides:
            return ""
        written, threshold = ratio_verdict(self.ratio_without_extension, self.threshold, False, digits)
        return (
            f"passes only with the elected {self.extended_years}-year extended commitment, 71(a)(5)(d): "
            f"without it {written} < {threshold}, fails"
        )

    def headline(self, digits: int = 1) -> str:
        """``"491.6% vs 400% threshold (71(a)(5)): passes"``; for a phased project the deciding
        test first: ``"phases 1: 254.8% vs 300% threshold (71(a)(5)(a)): fails (phases 1+2: 320.5%
        passes)"``. Written from the 71(a)(5) record, so the verdict is true of the numbers shown."""
        value, threshold, others = net_benefit_headline(self.net_benefit_decision, digits)
        text = f"{value} vs {threshold} threshold ({self.threshold_clause}): {'passes' if self.passes else 'fails'}"
        return f"{text} ({others})" if others else text

    #: Cash-flow columns in dollars (the others are counts, weights and factors).
    MONEY_COLUMNS = (
        "wages",
        "capital_investment",
        "construction_wages",
        "revenues",
        "costs",
        "net_benefits",
        "counted_net_benefits",
        "pv_net_benefits",
        "credits",
        "pv_credits",
        "cumulative_pv_net_benefits",
        "cumulative_pv_credits",
    )

    @property
    def approval_year(self) -> int:
        """The calendar year of approval (``approval_date``, else the application date); project year 1 starts in it."""
        return self.scenario.approval.year

    @property
    def currency(self) -> str:
        """The unit of every money table: nominal USD (:meth:`cashflows_real` gives USD of the approval year)."""
        return "nominal USD"

    def cashflows_real(self) -> pd.DataFrame:
        """``cashflows`` with every nominal amount in USD of the approval year.

        Amounts of project year t are divided by ``(1 + inflation)^(t - 1)``: year-1 dollars are
        taken as dollars of the approval year, as flat amounts are given
        (docs/scenario-format.md, "Inflation, nominal and real").
        Present values are not deflated (they are already values at approval). With no inflation
        the table equals ``cashflows``. Stream columns are deflated too.
        """
        table = self.cashflows.copy()
        deflator = (1.0 + self.scenario.inflation) ** (table.index.to_numpy() - 1.0)
        present_values = {"pv_net_benefits", "pv_credits", "cumulative_pv_net_benefits", "cumulative_pv_credits"}
        streams = set(self.streams["stream"]) if self.streams is not None else set()
        for column in table.columns:
            if (column in self.MONEY_COLUMNS or column in streams) and column not in present_values:
                table[column] = table[column] / deflator
        table.attrs["currency"] = f"USD of {self.approval_year}"
        return table

    def by_fiscal_year(self) -> pd.DataFrame:
        """Credits and counted benefits by New Jersey State fiscal year
        (:func:`netbenefit.model.fiscal.by_fiscal_year`)."""
        return by_fiscal_year(self)

    @property
    def net_benefit_ratio(self) -> float:
        """Deprecated: :attr:`ratio`, the same number."""
        warnings.warn("Result.net_benefit_ratio is deprecated; use Result.ratio", DeprecationWarning, stacklevel=2)
        return self.ratio

    @property
    def first_year_test_met(self) -> int | None:
        """The first project year by which the cumulative PV of the counted net benefits of the test
        that decides reaches the threshold multiple of the PV of that test's requested credits, or
        None if it never does (for a project without later phases, the whole project's).

        Read from :meth:`deciding_test_cumulative_pv` with the comparison of the net benefit test,
        71(a)(5).
        """
        cumulative, credits = self.deciding_test_cumulative_pv()
        reached = meets_threshold(cumulative / credits, self.threshold)
        years = np.asarray(self.computation.years)[reached]
        return int(years[0]) if len(years) else None

    def deciding_test_cumulative_pv(self) -> tuple[np.ndarray, float]:
        """(cumulative PV of counted net benefits by project year, PV of requested credits) of the
        test that decides 71(a)(5): the sums over its phases (the whole project's for a project
        without later phases, as in ``cashflows``). [USD, PV at approval]"""
        c = self.computation
        years = len(c.years)
        discount = np.broadcast_to(c.discount_factor, (1, years))[0]
        phases = c.phases[: len(self.deciding_phases)]
        counted = sum(np.broadcast_to(p.net_benefits * p.weight, (1, years))[0] for p in phases)
        credits = sum(float(np.broadcast_to(p.credits, (1, years))[0] @ discount) for p in phases)
        return np.cumsum(counted * discount), credits

    def check(self, check_id: str) -> bool:
        """Whether the check ``check_id`` (e.g. ``"71(a)(2)"``) passed."""
        rows = self.table_rows("checks")
        for row in rows:
            if row.id == check_id:
                return bool(row.passed)
        raise KeyError(f"no check {check_id!r}; checks are {[row.id for row in rows]}")

    def to_dict(self) -> dict[str, Any]:
        """The JSON result contract (docs/results.md), with plain Python values."""
        return {
            "name": self.name,
            "eligible": bool(self.eligible),
            "net_benefit": {
                "pv_benefits": float(self.pv_benefits),
                "pv_credits": float(self.pv_credits),
                "ratio": float(self.ratio),
                "threshold": float(self.threshold),
                "threshold_clause": self.threshold_clause,
                "passes": bool(self.passes),
                "discount_rate": float(self.discount_rate),
                "whole_project_ratio": float(
                    self.ratio if self.whole_project_ratio is None else self.whole_project_ratio
                ),
                "ratio_as_given": float(self.ratio if self.ratio_as_given is None else self.ratio_as_given),
                "ratio_without_extension": float(
                    self.ratio if self.ratio_without_extension is None else self.ratio_without_extension
                ),
                "passes_without_extension": bool(
                    self.passes if self.passes_without_extension is None else self.passes_without_extension
                ),
                "extension_decides": self.extension_decides,
                **self._deciding_test_dict(),
            },
            "checks": [
                {"id": row.id, "passed": bool(row.passed), "message": row.message} | self.decisions[row.id].as_dict()
                for row in self.table_rows("checks")
            ],
            "capital_investment_minimum": float(self.capital_investment_minimum),
            "infrastructure_fund_donation": float(self.infrastructure_fund_donation),
            "jobs_clause": self.jobs_clause,
            "retained_jobs_eligible": bool(self.retained_jobs_eligible),
            "phases": [
                {
                    "phases": [int(k) for k in row.phases],
                    "pv_benefits": float(row.pv_benefits),
                    "pv_credits": float(row.pv_credits),
                    "ratio": float(row.ratio),
                    "passes": bool(row.passes),
                }
                for row in self.table_rows("phase_tests")
            ],
            "extended_commitment": {
                "years": int(self.extended_years),
                "incremental_credit": float(self.incremental_credit),
                "repayment_schedule": [
                    {"years_maintained": int(row.years_maintained), "repayment": float(row.repayment)}
                    for row in self.table_rows("repayment_schedule")
                ],
                "test": self.extension_test,
                "repayment_by_phase": [
                    {"phase": int(phase), "years_maintained": int(m), "repayment": float(amount)}
                    for phase, m, amount in self.repayment_by_phase
                ],
            },
            "max_credit_pv": float(self.max_credit_pv),
            "max_credit_pv_note": self.max_credit_pv_note,
            "max_credit_pv_whole_project": float(
                self.max_credit_pv if self.max_credit_pv_whole_project is None else self.max_credit_pv_whole_project
            ),
            "excluded_streams": list(self.excluded_streams),
            "clawback_schedule": _clawback_rows(self.table_rows("clawback_schedule")),
            "clawback_note": self.clawback_note,
            "benefits_by_tax": [
                {"tax": row.tax, "nominal": float(row.nominal), "pv": float(row.pv)}
                for row in self.table_rows("benefits_by_tax")
            ],
            "conventions": list(self.conventions),
            "method": self.scenario.method,
            "warnings": list(self.warnings),
        }

    def _deciding_test_dict(self) -> dict[str, Any]:
        """``deciding_test`` and ``margin`` of the JSON's ``net_benefit``."""
        decided = self.deciding_test
        row = self.table_rows("phase_tests")[self.net_benefit_decision.deciding]
        return {
            "deciding_test": {
                "phases": list(self.deciding_phases),
                "ratio": float(decided.value),
                "passes": bool(decided.holds),
                "pv_benefits": float(row.pv_benefits),
                "pv_credits": float(row.pv_credits),
            },
            "margin": decided.margin,
        }

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    def summary(self) -> str:
        """A short plain-text account: the ratio against its threshold, then each check
        (:func:`netbenefit.model.result_summary.summary`)."""
        return summary(self)

    def __str__(self) -> str:
        return self.summary()

    def __repr__(self) -> str:
        """One line: name, ratio against threshold, verdicts and the two present values."""
        return (
            f"<Result {self.name!r}: {self.verdict()}; "
            f"{'eligible' if self.eligible else 'not eligible'}; "
            f"PV benefits {money(self.pv_benefits)}, PV credits {money(self.pv_credits)}>"
        )

    def _phased(self) -> bool:
        return len(self.net_benefit_decision.comparisons) > 1

    def _repr_html_(self) -> str:
        """Rich display in Jupyter: :func:`netbenefit.views.html.result_html`."""
        from ..views.html import result_html

        return result_html(self)

    def to_excel(self, path: str | Path) -> Path:
        """Write the workbook of this result (:mod:`netbenefit.views.workbook`): inputs, cash flows whose
        discount factors, present values and ratio are Excel formulas on the ``discount_rate`` cell,
        checks, phase tests. Atomic; returns the path; an OSError names the file."""
        with written_file("to_excel", path) as target:
            from ..views.workbook import write_workbook

            return write_workbook([self], target, comparison=False)

    def to_html(self, path: str | Path) -> Path:
        """Write the self-contained HTML report of ``netbenefit report``. Atomic; returns the path;
        an OSError names the file."""
        with written_file("to_html", path) as target:
            from ..views.html import write_report

            return write_report(self, target)

    def to_pdf(self, path: str | Path, **options: Any) -> Path:
        """Write the memo of this result as a PDF (:func:`netbenefit.views.html.memo.memo_html`: the
        verdict, the deciding test and its margin, the award, the break-even rate and the drivers
        on a first page; the appendix after). ``options``: ``date``, ``preparer``, ``appendix``,
        ``sensitivity``, ``montecarlo``, ``draws``, ``seed``, ``diff``, ``actuals``, ``paper``.
        Needs WeasyPrint (the pdf extra). Returns the path; the path and every option checked first."""
        with written_file("to_pdf", path) as target:
            from ..views.html.memo import memo_options, write_memo

            return write_memo(self, target, **memo_options(options, "to_pdf"))

    def plot(self, kind: str = "cumulative_pv", ax: Axes | None = None) -> Axes:
        """A chart of this result; returns the Axes.

        ``kind`` is a name of :data:`netbenefit.views.charts.SCENARIO_CHARTS`: ``cumulative_pv`` (the
        default), ``benefit_streams``, ``benefits_by_tax``, ``phase_ratios``,
        ``repayment_schedule``, ``clawback_schedule`` or ``scorecard``.
        """
        from ..views.charts import SCENARIO_CHARTS

        if not isinstance(kind, str):  # plot(ax) as before: the Axes given first
            kind, ax = "cumulative_pv", kind
        if kind not in SCENARIO_CHARTS:
            raise ValueError(f"unknown chart {kind!r}; use one of {', '.join(SCENARIO_CHARTS)}")
        return SCENARIO_CHARTS[kind](self, ax=ax)

    def table_rows(self, name: str) -> list:
        """The rows of the table ``name`` (attributes named by its columns), read from its columns
        when it is not built yet: no DataFrame is built for them."""
        table = self.table_columns_and_rows(name)
        if table is None:
            return []
        names, rows = table
        return [SimpleNamespace(**dict(zip(names, row, strict=True))) for row in rows]

    def table_columns_and_rows(self, name: str) -> tuple[list[str], list[tuple]] | None:
        """(column names, rows as tuples) of the table ``name``, None where this result has no such
        table; read from its columns when it is not built yet, so that no DataFrame is built."""
        value = self.__dict__.get(name)
        if value is None:
            return None
        if isinstance(value, OnDemand) and value.columns is not None:
            return list(value.columns), list(zip(*value.columns.values(), strict=True))
        frame = getattr(self, name)
        if frame.index.name is not None:  # the cash flows' year
            frame = frame.reset_index()
        return list(frame.columns), list(frame.itertuples(index=False, name=None))


#: Columns of the clawback schedule, in the order of the JSON rows (one list: the rule's).
CLAWBACK_COLUMNS = SCHEDULE_COLUMNS


def _clawback_rows(rows: list) -> list[dict[str, Any]]:
    """The clawback schedule as plain rows (an empty list where there is none)."""
    return [
        {"years_maintained": int(row.years_maintained)}
        | {name: float(getattr(row, name)) for name in CLAWBACK_COLUMNS if name != "years_maintained"}
        for row in rows
    ]


#: The tables of a Result that may be given as OnDemand (built when first read).
ON_DEMAND_FIELDS = (
    "checks",
    "phase_tests",
    "repayment_schedule",
    "cashflows",
    "streams",
    "award_calculation",
    "benefits_by_tax",
    "clawback_schedule",
)
for _name in ON_DEMAND_FIELDS:
    _default = Result.__dataclass_fields__[_name].default
    setattr(Result, _name, TableField(_name, NO_DEFAULT if _default is MISSING else _default))
del _name, _default
