"""Portfolio Monte Carlo: the program's fiscal-year cost and benefits with percentiles.

A portfolio file (YAML) lists the applications' scenario files, each with its own distributions
(as ``netbenefit montecarlo --vary``), and the *macro* draws shared by every application:

.. code-block:: yaml

    name: Example portfolio
    draws: 10000            # optional; the command's --draws wins
    seed: 2026              # optional; the command's --seed wins
    macro:                  # one draw per row, the same value for every application
      salary_growth: [normal, 0.025, 0.01]      # jobs.salary_growth of every application
      discount_rate: [uniform, 0.05, 0.07]
      inflation: [triangular, 0.01, 0.02, 0.035]
    applications:
      - file: pharma_campus.yaml                # inside this file's folder (the rule of named files)
        vary:
          jobs.new: [normal, 300, 30]
          jobs.median_salary: [triangular, 88000, 98000, 106000]
      - file: warehouse.yaml
      - file: comparison.xlsx                   # a workbook netbenefit wrote, as edited
        scenario: 2                             # which of a comparison workbook's scenarios

A macro draw *replaces* the key's value in every application (the State's discount rate, the
economy's wage growth and inflation), so all applications move together; an application's own
``vary`` may not name a macro key. No scenario key is added.

Reproducibility: the run's ``numpy.random.SeedSequence(seed)`` gives, for chunk c of the draws,
one stream of macro draws (spawn key ``(0, c)``) and one stream per application i (spawn key
``(1 + i, c)``), drawn key after key in the order of ``vary``. Every task rebuilds the streams of
its chunk from the seed alone; the applications are taken in groups of ``group_size``, each
(group, chunk) is one task that returns its group's sums, and the groups' sums are added in the
order of the file (on the workers, chunk by chunk). The one-process run executes the very same
tasks and additions in the same order, so a Dask run gives the same numbers, bit for bit, for the
same seed, chunk size and group size, whatever the number of workers.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ...errors import ScenarioError
from ...io.safe_text import html
from ...labels import money_exact
from ...model.cashflows import compute
from ...model.fiscal import fiscal_years, state_fiscal_year
from ...model.memory import check_memory
from ...model.tables import ResultTable
from ..columns import result_columns
from ..distributed import payload_of, scenario_of
from ..keys import drawn_values
from .portfolio_file import PortfolioFile, check_run_arguments, load_portfolio_file

if TYPE_CHECKING:
    from distributed import Client, LocalCluster
    from numpy.typing import ArrayLike

    from ...model.scenario import Scenario

#: Percentiles of the fiscal-year totals. [percent]
PERCENTILES = (5, 25, 50, 75, 95)  # not a statutory number: as netbenefit.analysis.montecarlo
#: Fiscal years a run provides past the scenarios' own, for drawn values that lengthen a project.
HORIZON_MARGIN = 10  # not a statutory number: room for a longer draw; trimmed when unused


# --- Workers ----------------------------------------------------------------------------------
#: Set in each worker process before it starts. Dask's nanny sets MALLOC_TRIM_THRESHOLD_, which
#: also stops glibc from raising its mmap threshold as it otherwise does: every array of a task
#: (10,000 draws x the project years, about 1 MB) is then mapped and unmapped anew, and a task
#: runs about 1.5-2 times slower than in one process. A high mmap threshold puts them back on the
#: heap (docs/portfolio.md, "On a real cluster").
WORKER_ENVIRONMENT = {"MALLOC_MMAP_THRESHOLD_": "268435456"}  # not a statutory number: 256 MB


def local_cluster(n_workers: int | None = None) -> LocalCluster:
    """A ``distributed.LocalCluster`` of single-threaded worker processes with :data:`WORKER_ENVIRONMENT`."""
    import dask  # optional (the dask extra): imported only to start a cluster
    from distributed import LocalCluster

    settings = {f"distributed.nanny.pre-spawn-environ.{name}": value for name, value in WORKER_ENVIRONMENT.items()}
    with dask.config.set(settings):
        # the workers' own log lines ("Compute Failed" blocks, a worker lost while the run is
        # stopped) are not written on the command's stderr: a task's error reaches the client,
        # which reports it as netbenefit's one line
        return LocalCluster(
            n_workers=n_workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=logging.CRITICAL,
        )


# --- One task ---------------------------------------------------------------------------------
#: The values already checked for each application of a run, in this process (a worker keeps
#: them from task to task): ``(seed, application index, fingerprint of the scenario) ->
#: {key: (low, high)}``, as
#: :func:`netbenefit.analysis.keys.check_values` keeps them for the chunks of one run. Checking
#: raises or passes: it changes no number.
_CHECKED: dict[tuple[int, int, str], dict] = {}
_CHECKED_LIMIT = 100_000


def _stream(entropy: int, stream: int, chunk: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence(entropy, spawn_key=(stream, chunk)))


def _rows(array: ArrayLike, size: int, years: int) -> np.ndarray:
    return np.broadcast_to(np.asarray(array, dtype=float), (size, years))


def group_task(
    applications: Sequence[tuple[Any, int, dict, str]],
    macro: dict,
    entropy: int,
    chunk: int,
    size: int,
    first: int,
    n_fiscal_years: int,
    out_of_range: str = "error",
) -> dict[str, np.ndarray]:
    """One (group of applications, chunk of draws): the group's sums by draw and fiscal year.

    ``applications``: ``(scenario or its payload, index in the file, vary, fingerprint of the
    scenario)``; column k of the sums is fiscal year ``first + k``. Returns ``credits`` and ``benefits``
    (``size`` x ``n_fiscal_years`` [USD, nominal]) and ``passing`` (applications passing 71(a)(5), per draw).
    """
    credits = np.zeros((size, n_fiscal_years))
    benefits = np.zeros((size, n_fiscal_years))
    passing = np.zeros(size, dtype=np.int64)
    if len(_CHECKED) > _CHECKED_LIMIT:
        _CHECKED.clear()
    macro_rng = _stream(entropy, 0, chunk)
    macro_draws = {key: distribution.draw(macro_rng, size) for key, distribution in macro.items()}
    for scenario, index, vary, fingerprint in applications:
        if isinstance(scenario, tuple):  # a payload sent to a worker
            scenario = scenario_of(scenario)
        rng = _stream(entropy, 1 + index, chunk)
        checked = _CHECKED.setdefault((entropy, index, fingerprint), {})
        overrides = {
            key: drawn_values(scenario, key, d.draw(rng, size), out_of_range, checked) for key, d in vary.items()
        }
        for key, draws in macro_draws.items():
            overrides[key] = drawn_values(scenario, key, draws, out_of_range, checked)
        c = compute(scenario, overrides)
        years = len(c.years)
        columns = fiscal_years(scenario.approval, c.years, scenario.timing) - first  # drawn values may lengthen it
        if columns.max() >= n_fiscal_years:
            raise ScenarioError(
                scenario.source,
                "",
                f"a drawn value runs the project to fiscal year {first + int(columns.max())}, past fiscal year "
                f"{first + n_fiscal_years - 1}, the last of this run (the scenarios' own years and {HORIZON_MARGIN} "
                "more): narrow the distribution of the key that lengthens it",
            )
        yearly_credits = sum(_rows(phase.credits, c.size, years) for phase in c.phases)
        yearly_benefits = sum(_rows(phase.net_benefits * phase.weight, c.size, years) for phase in c.phases)
        for j, column in enumerate(columns):
            credits[:, column] += yearly_credits[:, j]
            benefits[:, column] += yearly_benefits[:, j]
        passing += np.broadcast_to(result_columns(c)["passes"], (size,)).astype(np.int64)
    return {"credits": credits, "benefits": benefits, "passing": passing}


# --- The run ----------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)  # tables inside: compared by identity
class PortfolioMonteCarlo:
    """The percentiles of the program's fiscal-year totals over the draws.

    ``fiscal_years``: indexed by ``fiscal_year``; for ``credits``, ``benefits`` and
    ``net_benefits`` (benefits - credits), the mean and the percentiles (``credits_p5`` ...
    ``credits_p95``) [USD, nominal]. ``passing``: percentiles of the number of applications
    passing 71(a)(5). ``totals``: the draws' fiscal-year sums (``credits``, ``benefits``:
    draws x fiscal years), kept for further analysis.
    """

    name: str
    draws: int
    seed: int
    chunk_size: int
    group_size: int
    applications: int
    fiscal_years: Any
    passing: dict[str, float]
    totals: dict[str, np.ndarray] = field(repr=False)

    def __str__(self) -> str:
        table = self.fiscal_years
        lines = [
            f"{self.name}: {self.applications} applications x {self.draws:,} draws (seed {self.seed}, "
            f"chunks of {self.chunk_size:,}, groups of {self.group_size})",
            "applications passing 71(a)(5): " + ", ".join(f"p{p} {self.passing[f'p{p}']:.0f}" for p in PERCENTILES),
        ]
        for year, row in table.iterrows():
            if row["credits_p95"] == 0 and row["benefits_p95"] == 0:
                continue
            lines.append(
                f"  FY{year}: credits {money_exact(row['credits_p50'])} (p5 {money_exact(row['credits_p5'])} - "
                f"p95 {money_exact(row['credits_p95'])}); benefits {money_exact(row['benefits_p50'])} "
                f"(p5 {money_exact(row['benefits_p5'])} - p95 {money_exact(row['benefits_p95'])})"
            )
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        return f"<pre>{html(str(self))}</pre>"


def _plan(book: PortfolioFile) -> tuple[int, list[np.ndarray]]:
    """The first fiscal year and each application's fiscal-year columns (by project year)."""
    placed = []
    for scenario in book.scenarios:
        placed.append(fiscal_years(scenario.approval, compute(scenario).years, scenario.timing))
    first = min(min(int(p.min()) for p in placed), min(state_fiscal_year(s.approval) for s in book.scenarios))
    return first, [p - first for p in placed]


def portfolio_montecarlo(
    book: PortfolioFile | str | Path,
    draws: int | None = None,
    seed: int | None = None,
    *,
    client: Any = None,
    chunk_size: int | None = None,
    group_size: int | None = None,
    out_of_range: str = "error",
) -> PortfolioMonteCarlo:
    """Run the portfolio Monte Carlo of ``book`` (a :class:`PortfolioFile` or its path).

    ``draws``, ``seed``, ``chunk_size``, ``group_size``: override the file's (defaults 10,000
    draws, a fresh seed, chunks of 10,000 draws, groups of 20 applications). ``client``: a
    ``distributed.Client``; every (group, chunk) is then a task on its cluster, with the same
    result as in one process (module docstring).
    """
    if not isinstance(book, PortfolioFile):
        book = load_portfolio_file(book)
    check_run_arguments("portfolio_montecarlo", draws, seed, chunk_size, group_size)  # 0 is not the default
    draws = int(draws if draws is not None else (book.draws or 10_000))
    seed = seed if seed is not None else book.seed
    seed = int(np.random.SeedSequence(seed).entropy) if seed is None else int(seed)
    chunk_size = int(chunk_size if chunk_size is not None else book.chunk_size)
    group_size = int(group_size if group_size is not None else book.group_size)
    first, columns = _plan(book)
    planned = max(int(c.max()) for c in columns) + 1
    n_fy = planned + HORIZON_MARGIN
    # the sums (credits, benefits: draws x fiscal years), the passing counts, and their copies in the table
    needed = draws * (2 * n_fy + 1) * 8 * 3
    check_memory(book.source, "draws", needed, f"a run of {draws:,} draws")
    prints = [_fingerprint(scenario) for scenario in book.scenarios]
    indices = list(range(len(book.scenarios)))
    groups = [indices[i : i + group_size] for i in range(0, len(indices), group_size)]
    chunks = [(c, start, min(draws, start + chunk_size)) for c, start in enumerate(range(0, draws, chunk_size))]
    totals = {"credits": np.zeros((draws, n_fy)), "benefits": np.zeros((draws, n_fy))}
    passing = np.zeros(draws, dtype=np.int64)
    if client is None:
        parts = _in_process(book, groups, chunks, seed, first, n_fy, out_of_range, prints)
    else:
        parts = _on_cluster(client, book, groups, chunks, seed, first, n_fy, out_of_range, prints)
    for start, stop, part in parts:  # each chunk's groups already added, in file order: the same sums
        totals["credits"][start:stop] += part["credits"]
        totals["benefits"][start:stop] += part["benefits"]
        passing[start:stop] += part["passing"]
    used = np.flatnonzero(np.any(totals["credits"] != 0, axis=0) | np.any(totals["benefits"] != 0, axis=0))
    keep = max(planned, int(used.max()) + 1 if used.size else 0)  # the margin's unused years trimmed
    totals = {name: np.ascontiguousarray(values[:, :keep]) for name, values in totals.items()}
    table = _table(totals, first, keep)
    summary = {f"p{p}": float(v) for p, v in zip(PERCENTILES, np.percentile(passing, PERCENTILES), strict=True)}
    summary["mean"] = float(passing.mean())
    table.attrs["conventions"] = "nominal USD by State fiscal year; " + _macro_note(book)
    return PortfolioMonteCarlo(
        book.name, draws, seed, chunk_size, group_size, len(book.scenarios), table, summary, totals
    )


def _fingerprint(scenario: Scenario) -> str:
    """A digest of the scenario's contents (the key of the values checked for it)."""
    text = json.dumps([scenario.to_dict(), str(scenario.source)], sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _members(
    book: PortfolioFile, group: list[int], payloads: Sequence[Any] | None, prints: Sequence[str]
) -> list[tuple[Any, int, dict, str]]:
    return [(book.scenarios[i] if payloads is None else payloads[i], i, book.vary[i], prints[i]) for i in group]


def _in_process(
    book: PortfolioFile,
    groups: Sequence[list[int]],
    chunks: Sequence[tuple[int, int, int]],
    seed: int,
    first: int,
    n_fy: int,
    out_of_range: str,
    prints: Sequence[str],
) -> Iterator[tuple[int, int, dict[str, np.ndarray]]]:
    """The tasks of :func:`_on_cluster`, and its additions, in the same order, in this process."""
    for c, start, stop in chunks:
        total = None
        for g in groups:
            part = group_task(
                _members(book, g, None, prints), book.macro, seed, c, stop - start, first, n_fy, out_of_range
            )
            total = part if total is None else add_parts(total, part)
        yield start, stop, total


def add_parts(earlier: dict[str, np.ndarray], later: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The sums of two tasks of one chunk (earlier groups first), added on a worker."""
    return {name: earlier[name] + later[name] for name in earlier}


def _on_cluster(
    client: Client,
    book: PortfolioFile,
    groups: Sequence[list[int]],
    chunks: Sequence[tuple[int, int, int]],
    seed: int,
    first: int,
    n_fy: int,
    out_of_range: str,
    prints: Sequence[str],
) -> Iterator[tuple[int, int, dict[str, np.ndarray]]]:
    """Every (group, chunk) a task; each chunk's groups added on the workers, in file order (the
    order of the one-process run: ``0 + a + b`` is ``a + b`` exactly), so that the client receives
    one part per chunk."""
    payloads = [client.scatter(payload_of(s), broadcast=False, hash=False) for s in book.scenarios]
    futures, spans, submitted = [], [], []
    for c, start, stop in chunks:
        total = None
        for g in groups:
            members = _members(book, g, payloads, prints)
            part = client.submit(
                group_task, members, book.macro, seed, c, stop - start, first, n_fy, out_of_range, pure=False
            )
            submitted.append(part)
            total = part if total is None else client.submit(add_parts, total, part, pure=False)
            submitted.append(total)
        futures.append(total)
        spans.append((start, stop))
    try:
        for (start, stop), future in zip(spans, futures, strict=True):
            yield start, stop, future.result()
    finally:
        for future in submitted:
            if not future.done():
                future.cancel()


def _table(totals: dict[str, np.ndarray], first: int, n_fy: int) -> ResultTable:
    import pandas as pd

    data = {}
    net = totals["benefits"] - totals["credits"]
    for name, values in (("credits", totals["credits"]), ("benefits", totals["benefits"]), ("net_benefits", net)):
        data[f"{name}_mean"] = values.mean(axis=0)
        for p, row in zip(PERCENTILES, np.percentile(values, PERCENTILES, axis=0), strict=True):
            data[f"{name}_p{p}"] = row

    table = pd.DataFrame(data, index=pd.RangeIndex(first, first + n_fy, name="fiscal_year"))
    return ResultTable.of(table, unknown="USD", units={"fiscal_year": ""})


def _macro_note(book: PortfolioFile) -> str:
    if not book.macro:
        return "no macro draws"
    return "macro draws shared by every application: " + ", ".join(
        f"{key} {d.name}{tuple(d.parameters) if d.parameters else ''}" for key, d in book.macro.items()
    )


def totals_match(a: PortfolioMonteCarlo, b: PortfolioMonteCarlo) -> bool:
    """Whether two runs gave the same fiscal-year sums for every draw, bit for bit."""
    return all(np.array_equal(a.totals[k], b.totals[k]) for k in a.totals) and math.isclose(
        a.passing["mean"], b.passing["mean"], rel_tol=0, abs_tol=0
    )
