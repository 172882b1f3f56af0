"""Monte Carlo: random draws of some keys, the test on each draw, and a summary.

Distributions (the ``vary`` argument of :func:`montecarlo`), one per key:

========================================  =====================================================
``("uniform", low, high)``                every value in [low, high) equally likely
``("normal", mean, sd)``                  normal with that mean and standard deviation
``("triangular", low, mode, high)``       triangular on [low, high], peaking at mode
``("lognormal", mean, sigma)``            ``exp(X)`` with X normal(mean, sigma): as numpy,
                                          mean and sigma are those of the *underlying normal*
                                          (the median of the draws is ``exp(mean)``)
``[v1, v2, ...]``                         one of the listed values, each equally likely
                                          (numbers, or booleans for a flag)
========================================  =====================================================

Reproducibility: each key has its own random stream, spawned from
``numpy.random.SeedSequence(seed)`` in the order of ``vary``; draws are taken chunk by chunk from
that stream, so the same seed gives the same draws whatever the chunk size, and adding a key at
the end of ``vary`` leaves the draws of the others unchanged.

Values outside a key's valid range (a share above 1, a negative job count, a discount rate at or
below -1, a fraction of a year) raise :class:`~netbenefit.errors.ScenarioError` by default
(``out_of_range="error"``), naming the key and the number of such draws; with
``out_of_range="clip"`` they are moved to the nearest valid value (see
:func:`netbenefit.analysis.keys.check_values`). Prefer a distribution that stays inside the range
(uniform, triangular) to clipping, which piles probability on the bound.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ..errors import ScenarioError
from ..io.arguments import checked, count, mapping, optional
from ..model.cashflows import compute
from ..model.conventions import Conventions
from ..model.memory import check_memory
from ..model.scenario import Scenario
from ..model.scenario.loading import scenario_argument
from .columns import DEFAULT_CHUNK_SIZE, NOTES, allocate, count_failures
from .distributed import montecarlo_chunks
from .entered import warn_distributions
from .keys import check_values, drawn_values, key_labels, key_spec, table_values
from .structure import box
from .structure import chunks as structure_chunks
from .variants import frame, iter_chunks

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from tqdm.auto import tqdm

#: Distribution names and the names of their parameters, in order.
DISTRIBUTIONS = {
    "uniform": ("low", "high"),
    "normal": ("mean", "sd"),
    "triangular": ("low", "mode", "high"),
    "lognormal": ("mean", "sigma"),
}
#: Percentiles of the ratio given in the summary. [percent]
PERCENTILES = (5, 25, 50, 75, 95)  # not a statutory number: the quartiles and the 5th/95th percentiles


@dataclass(frozen=True)
class Distribution:
    """A parsed distribution of one key: a name of :data:`DISTRIBUTIONS`, or ``choice``."""

    name: str
    parameters: tuple = ()
    values: np.ndarray | None = None  # for "choice"

    def draw(self, rng: np.random.Generator, size: int) -> np.ndarray:
        """``size`` draws from ``rng`` (sequential in the stream: chunks concatenate exactly)."""
        p = self.parameters
        if self.name == "uniform":
            return rng.uniform(p[0], p[1], size)
        if self.name == "normal":
            return rng.normal(p[0], p[1], size)
        if self.name == "triangular":
            if p[0] == p[2]:
                return np.full(size, float(p[0]))
            return rng.triangular(p[0], p[1], p[2], size)
        if self.name == "lognormal":
            return rng.lognormal(p[0], p[1], size)
        index = np.minimum((rng.random(size) * len(self.values)).astype(np.int64), len(self.values) - 1)
        return self.values[index]


def parse_distribution(scenario: Scenario, key: str, spec: Any) -> Distribution:
    """Read one ``vary`` entry. Raises ScenarioError naming the key for a bad specification."""
    source = scenario.source
    if isinstance(spec, str) or not isinstance(spec, Sequence | np.ndarray):
        raise ScenarioError(
            source, key, f"give a distribution such as ('normal', mean, sd) or a list of values, not {spec!r}"
        )
    items = list(spec)
    if items and isinstance(items[0], str):
        name = items[0]
        if name not in DISTRIBUTIONS:
            raise ScenarioError(source, key, f"unknown distribution {name!r}; use one of {', '.join(DISTRIBUTIONS)}")
        names = DISTRIBUTIONS[name]
        parameters = items[1:]
        if len(parameters) != len(names):
            expected = f"{len(names)} parameters ({', '.join(names)})"
            raise ScenarioError(source, key, f"{name} takes {expected}, got {len(parameters)}")
        numeric = (int, float, np.integer, np.floating)
        if not all(isinstance(x, numeric) and not isinstance(x, bool) for x in parameters):
            raise ScenarioError(source, key, f"the parameters of {name} must be numbers, got {parameters!r}")
        parameters = tuple(float(x) for x in parameters)
        if not all(np.isfinite(parameters)):
            raise ScenarioError(source, key, f"the parameters of {name} must be finite, got {parameters!r}")
        _check_parameters(source, key, name, parameters)
        if key_spec(scenario, key).kind == "flag":
            raise ScenarioError(source, key, "a flag takes a list of values such as [true, false], not a distribution")
        return Distribution(name, parameters)
    if not items:
        raise ScenarioError(source, key, "the list of values is empty")
    kind = key_spec(scenario, key).kind
    values = np.asarray(items)
    if kind == "flag" and values.dtype != bool:
        raise ScenarioError(source, key, f"a flag takes a list of true/false values, got {items!r}")
    if kind != "flag" and (values.dtype == bool or values.dtype.kind not in "iuf"):
        raise ScenarioError(source, key, f"the list must hold numbers, got {items!r}")
    return Distribution("choice", values=values if kind == "flag" else values.astype(float))


def _check_parameters(source: str, key: str, name: str, p: tuple) -> None:
    if name == "uniform" and not p[0] <= p[1]:
        raise ScenarioError(source, key, f"uniform needs low <= high, got {p}")
    if name in ("normal", "lognormal") and p[1] < 0:
        raise ScenarioError(source, key, f"{name} needs a spread >= 0, got {p[1]}")
    if name == "triangular" and not p[0] <= p[1] <= p[2]:
        raise ScenarioError(source, key, f"triangular needs low <= mode <= high, got {p}")


@dataclass(frozen=True)
class MonteCarloSummary:
    """What a Monte Carlo run found.

    Attributes
    ----------
    draws : int
        Number of draws.
    probability_passes : float
        Share of draws that pass the net positive benefit test, 71(a)(5). [share]
    probability_eligible : float
        Share of draws that pass every eligibility check. [share]
    ratio_mean : float
        Mean net benefit ratio over the draws where it is defined (NaN if none).
    ratio_percentiles : dict of int -> float
        The 5th, 25th, 50th, 75th and 95th percentiles of the ratio (linear interpolation,
        ``numpy.percentile``), over the draws where it is defined.
    undefined : int
        Draws whose ratio is undefined (see the ``note`` column); they count as failing.
    check_failures : dict of str -> int
        Draws that fail each check of s.71, by check id in statute order (empty when the table
        summarised does not say).
    threshold : float
        The threshold of the base scenario (NaN when unknown). [ratio]
    """

    draws: int
    probability_passes: float
    probability_eligible: float
    ratio_mean: float
    ratio_percentiles: dict[int, float]
    undefined: int
    check_failures: dict[str, int] = field(default_factory=dict, compare=False)
    threshold: float = field(default=float("nan"), compare=False)

    @property
    def most_failed_check(self) -> tuple[str, int] | None:
        """The check that the most draws fail and how many, or None when no draw fails a check."""
        if not self.check_failures or max(self.check_failures.values()) == 0:
            return None
        check_id = max(self.check_failures, key=lambda key: self.check_failures[key])
        return check_id, self.check_failures[check_id]

    def to_dict(self) -> dict[str, Any]:
        """Plain values: ``draws``, ``probability_passes``, ..., ``ratio_p5`` .. ``ratio_p95``."""
        out = {
            "draws": self.draws,
            "probability_passes": self.probability_passes,
            "probability_eligible": self.probability_eligible,
            "ratio_mean": self.ratio_mean,
        }
        out.update({f"ratio_p{p}": value for p, value in self.ratio_percentiles.items()})
        out["undefined"] = self.undefined
        out.update({f"failures {check_id}": count for check_id, count in self.check_failures.items()})
        return out

    def __str__(self) -> str:
        percentiles = ", ".join(f"p{p} {value:.1%}" for p, value in self.ratio_percentiles.items())
        lines = [
            f"draws {self.draws:,}",
            f"probability of passing the net positive benefit test: {self.probability_passes:.2%}",
            f"probability of eligibility (every check): {self.probability_eligible:.2%}",
            f"net benefit ratio: mean {self.ratio_mean:.1%}; {percentiles}",
        ]
        if self.undefined:
            lines.append(f"draws with an undefined ratio (counted as failing): {self.undefined:,}")
        most = self.most_failed_check
        if most is not None:
            lines.append(f"check failed most often: {most[0]}, in {most[1]:,} draws ({most[1] / self.draws:.1%})")
        return "\n".join(lines)


@dataclass(frozen=True)
class MonteCarloResult:
    """The draws (unless ``keep_draws=False``) and their summary.

    Attributes
    ----------
    draws : DataFrame or None
        One row per draw: a column per varied key, then ``pv_benefits`` [USD], ``pv_credits``
        [USD], ``ratio``, ``threshold``, ``passes``, ``eligible`` and ``note``.
    summary : MonteCarloSummary
    seed : int
        The seed used: the one given, or the fresh entropy drawn when none was given (pass it
        back as ``seed`` to repeat the run).
    vary : dict
        The parsed distribution of each key.
    """

    draws: pd.DataFrame | None
    summary: MonteCarloSummary
    seed: int
    vary: dict[str, Distribution] = field(repr=False)
    #: The conventions of the base scenario (discount rate, timing, window), for charts.
    conventions: Conventions | None = field(default=None, repr=False)
    #: Each varied key in words with its phase (:func:`netbenefit.analysis.keys.key_label`).
    key_labels: dict[str, str] = field(default_factory=dict, repr=False)

    def plot(self, ax: Axes | None = None) -> Axes:
        """:func:`netbenefit.views.charts.montecarlo_distribution` of this run; returns the Axes."""
        from ..views.charts import montecarlo_distribution

        return montecarlo_distribution(self, ax=ax)

    def _repr_html_(self) -> str:
        """Rich display in Jupyter: :func:`netbenefit.views.notebook.montecarlo_html`."""
        from ..views.notebook import montecarlo_html

        return montecarlo_html(self)


def _progress_bar(enabled: bool | None, total: int, chunks: int) -> tqdm[Any] | None:
    if enabled is None:
        enabled = chunks > 1 and hasattr(sys.stderr, "isatty") and sys.stderr.isatty()
    if not enabled:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, unit="draw", unit_scale=True, desc="Monte Carlo", file=sys.stderr, leave=False)


@checked(draws=count(1), seed=optional(count(0)), chunk_size=count(1), vary=optional(mapping))  # io.arguments
def montecarlo(
    scenario: Scenario,
    draws: int = 10_000,
    vary: Mapping[str, Any] | None = None,
    seed: int | None = None,
    progress: bool | None = None,
    *,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    keep_draws: bool = True,
    out_of_range: str = "error",
    client: Any = None,
    use_structure: bool = True,
) -> MonteCarloResult:
    """Draw values of some keys at random and run the test on every draw.

    Parameters
    ----------
    scenario : Scenario
    draws : int
        Number of draws. [draws]
    vary : mapping of dotted key -> distribution
        See the module docstring: ``("uniform", low, high)``, ``("normal", mean, sd)``,
        ``("triangular", low, mode, high)``, ``("lognormal", mean, sigma)`` (of the underlying
        normal) or a list of values.
    seed : int, optional
        Seed of ``numpy.random.SeedSequence``; the same seed gives the same draws.
    progress : bool, optional
        Show a progress bar on stderr (tqdm; a widget in a notebook). Default: only when the run
        takes more than one chunk and stderr is a terminal. False turns it off.
    chunk_size : int
        Draws computed at once; memory grows with it, not with ``draws``. [draws]
    keep_draws : bool
        False keeps only the summary (and the ratio of each draw, 8 bytes a draw, for exact
        percentiles): for runs of tens of millions of draws.
    out_of_range : {"error", "clip"}
        What to do with draws outside a key's valid range (module docstring).
    client : distributed.Client, optional
        Run each chunk as a task on this Dask cluster (:mod:`netbenefit.analysis.distributed`):
        the same draws and results as in one process, whatever the number of workers.
    use_structure : bool
        Where the model's own numbers show that the varied keys enter the benefits and credits
        multilinearly (and the discount rate only discounts), evaluate each draw as a few sums
        over years (:mod:`netbenefit.analysis.structure`): the same results to 1e-12 relative,
        the same flags. False, or a model that fails the test, runs the general path.

    Returns
    -------
    MonteCarloResult
        ``.draws`` (DataFrame, or None) and ``.summary`` (:class:`MonteCarloSummary`).

    Examples
    --------
    >>> vary = {"jobs.new": ("normal", 260, 25), "discount_rate": ("uniform", 0.04, 0.08)}
    >>> run = montecarlo(scenario, draws=100_000, vary=vary, seed=1)  # doctest: +SKIP
    >>> run.summary.probability_passes  # doctest: +SKIP
    """
    scenario, draws = _checked_run(scenario, draws, seed, chunk_size)  # a path is loaded
    distributions = _distributions(scenario, vary)
    seed_sequence = np.random.SeedSequence(seed)  # with seed None, fresh entropy, kept in the result
    generators = [np.random.default_rng(child) for child in seed_sequence.spawn(len(distributions))]

    checked: dict[str, tuple[float, float]] = {}  # the values already applied to each key (check_values)
    if use_structure and client is None:
        _check_box(scenario, distributions, checked)

    def make_overrides(start: int, stop: int) -> dict[str, np.ndarray]:
        values = {}
        for (key, distribution), rng in zip(distributions.items(), generators, strict=True):
            draws = distribution.draw(rng, stop - start)
            values[key] = drawn_values(scenario, key, draws, out_of_range, checked)
        return values

    base = compute(scenario)  # the conventions and the check ids of the summary
    conventions = Conventions.of_computation(scenario, base, tuple(distributions))
    tally = _Tally.of(draws, tuple(base.checks), tuple(distributions), keep_draws)
    bar = _progress_bar(progress, draws, -(-draws // chunk_size))
    try:
        if client is None:
            chunks = _chunks_here(scenario, draws, make_overrides, chunk_size, bar, distributions, use_structure)
        else:
            chunks = montecarlo_chunks(
                client, scenario, draws, distributions, generators, chunk_size, out_of_range, bar, keep_draws,
                use_structure,
            )
        for start, stop, overrides, chunk in chunks:
            tally.add(start, stop, overrides, chunk)
    finally:
        if bar is not None:
            bar.close()
    summary = replace(
        _summarise(tally.ratios, draws, tally.passes, tally.eligible, tally.undefined),
        check_failures=dict(zip(tally.check_ids, (int(n) for n in tally.failures), strict=True)),
        threshold=float(np.asarray(base.threshold).reshape(-1)[0]),
    )
    named = key_labels(scenario, distributions)  # each key with its phase
    table = tally.table(scenario)
    return MonteCarloResult(table, summary, seed_sequence.entropy, distributions, conventions, key_labels=named)


@dataclass
class _Tally:
    """What a run keeps of its chunks as they come: each draw's ratio, the counts of draws that
    pass, are eligible or have no ratio, the failures of each check, and (``keep_draws``) every
    column of the table and the drawn values of each key."""

    check_ids: tuple[str, ...]
    keep_draws: bool
    ratios: np.ndarray
    failures: np.ndarray
    columns: dict[str, np.ndarray]
    kept_keys: dict[str, list[np.ndarray]]
    passes: int = 0
    eligible: int = 0
    undefined: int = 0

    @classmethod
    def of(cls, draws: int, check_ids: tuple[str, ...], keys: tuple[str, ...], keep_draws: bool) -> _Tally:
        failures = np.zeros(len(check_ids), dtype=np.int64)
        columns = allocate(draws if keep_draws else 0)
        return cls(check_ids, keep_draws, np.empty(draws), failures, columns, {key: [] for key in keys})

    def add(self, start: int, stop: int, overrides: Mapping[str, np.ndarray], chunk: Mapping[str, Any]) -> None:
        """Draws ``start`` to ``stop``: their values (``overrides``) and their results (``chunk``)."""
        self.ratios[start:stop] = chunk["ratio"]
        self.passes += int(np.count_nonzero(chunk["passes"]))
        self.eligible += int(np.count_nonzero(chunk["eligible"]))
        self.undefined += int(np.count_nonzero(chunk["note"]))
        self.failures += list(count_failures(self.check_ids, chunk["failed_checks"]).values())
        if self.keep_draws:
            for name, values in chunk.items():
                self.columns[name][start:stop] = values
            for key, values in overrides.items():
                self.kept_keys[key].append(values)

    def table(self, scenario: Scenario) -> pd.DataFrame | None:
        """The table of the draws: the drawn values of each key, then the results (``keep_draws``)."""
        if not self.keep_draws:
            return None
        drawn = {key: table_values(scenario, key, np.concatenate(v)) for key, v in self.kept_keys.items()}
        return frame(drawn, self.columns)


def _distributions(scenario: Scenario, vary: Mapping[str, Any] | None) -> dict[str, Distribution]:
    """The distributions of ``vary``, before any draw: each key known and variable, and the values
    typed by hand warned about (a percent for a rate; ``--strict``: refused)."""
    distributions = {key: parse_distribution(scenario, key, spec) for key, spec in (vary or {}).items()}
    for key in distributions:
        key_spec(scenario, key)  # unknown or fixed keys fail before any draw
    warn_distributions(scenario, distributions)
    return distributions


def _checked_run(scenario: Any, draws: Any, seed: Any, chunk_size: int) -> tuple[Scenario, int]:
    """The scenario (a path is loaded) and the number of draws, once it, the seed and the chunk
    size are checked (one-line errors)."""
    scenario = scenario_argument(scenario, "montecarlo")
    source = scenario.source
    if isinstance(draws, bool) or not isinstance(draws, int | np.integer) or draws < 1:
        raise ScenarioError(source, "", f"draws must be a whole number >= 1, not {draws!r}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0):
        raise ScenarioError(source, "", f"seed must be a whole number >= 0, not {seed!r}")
    if chunk_size < 1:
        raise ScenarioError(source, "", f"chunk_size must be at least 1, not {chunk_size!r}")

    check_memory(source, "draws", int(draws) * 8 * 2, f"a run of {int(draws):,} draws")  # the ratios, at least
    return scenario, int(draws)


def _chunks_here(
    scenario: Scenario,
    draws: int,
    make_overrides: Callable[[int, int], Mapping[str, np.ndarray]],
    chunk_size: int,
    bar: tqdm[Any] | None,
    distributions: Mapping[str, Distribution],
    use_structure: bool,
) -> Iterator[tuple[int, int, Mapping[str, np.ndarray], dict[str, np.ndarray]]]:
    """The chunks of a run in this process: on the model's structure where asked, else the general path."""
    if use_structure:
        return structure_chunks(scenario, draws, make_overrides, chunk_size, bar, distributions)
    return iter_chunks(scenario, draws, make_overrides, chunk_size, bar)


def _check_box(scenario: Scenario, distributions: Mapping[str, Distribution], checked: dict) -> None:
    """Apply the extremes of each key's distribution (:func:`netbenefit.analysis.structure.box`)
    once, up front, where they are valid: the chunks' draws between them then need no
    :meth:`Scenario.replace` (check_values reads a key valid at two values as valid between
    them); a key whose extremes are not valid is checked chunk by chunk as before."""
    for key, values in (box(scenario, distributions) or {}).items():
        try:
            check_values(scenario, key, values, checked=checked)
        except ScenarioError:
            checked.pop(key, None)


def _summarise(ratios: np.ndarray, draws: int, passes: int, eligible: int, undefined: int) -> MonteCarloSummary:
    defined = ratios[~np.isnan(ratios)] if undefined else ratios
    if defined.size:
        values = np.percentile(defined, PERCENTILES)
        percentiles = {p: float(v) for p, v in zip(PERCENTILES, values, strict=True)}
        mean = float(np.mean(defined))
    else:
        percentiles = {p: float("nan") for p in PERCENTILES}
        mean = float("nan")
    return MonteCarloSummary(
        draws=draws,
        probability_passes=passes / draws,
        probability_eligible=eligible / draws,
        ratio_mean=mean,
        ratio_percentiles=percentiles,
        undefined=undefined,
    )


def summarise(table: pd.DataFrame) -> MonteCarloSummary:
    """The summary of a table of draws (or of a sweep's rows, each weighing the same)."""
    ratios = table["ratio"].to_numpy(dtype=float)
    undefined = int(np.count_nonzero(table["note"].astype(str) != NOTES[0])) if "note" in table else 0
    return _summarise(
        ratios, len(table), int(table["passes"].sum()), int(table["eligible"].sum()), undefined
    )
