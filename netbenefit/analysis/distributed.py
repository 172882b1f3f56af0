"""Monte Carlo and sweeps on a Dask cluster: each chunk of variants is one task.

Optional: ``pip install 'netbenefit[dask]'`` (dask and distributed). Pass a
``distributed.Client`` as ``client`` to :func:`~netbenefit.analysis.montecarlo` or
:func:`~netbenefit.analysis.sweep`, or ``--scheduler ADDRESS`` on the command line.

The results are those of the run in one process, whatever the number of workers:

- a sweep's task receives its rows of the grid;
- a Monte Carlo task receives, for each varied key, the state of that key's random stream at
  the first draw of its chunk (the streams are spawned from the run's seed, as in one process),
  and makes its own draws from it. The client only moves each stream past the chunk's draws
  (it draws and discards them), so that the next task starts where this one ends: the draws of
  every chunk are the ones one process makes.

It pays off when the model's work per chunk is large against the cost of a task (tens of
milliseconds on a local cluster, more across machines): many draws, or many projects at once,
on more cores than one machine has (docs/analysis.md, "On a Dask cluster").
"""

from __future__ import annotations

import math
import urllib.parse
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from ..errors import ScenarioError
from ..model.scenario import Scenario
from .columns import general_columns
from .keys import drawn_values
from .structure import columns_on_structure, plan_for


def payload_of(scenario: Scenario) -> tuple[dict, str, str, dict]:
    """What a task needs to rebuild the scenario (a Scenario is not picklable): its data, its file
    and folder, and the files it names held in memory (a workbook's multiplier table, read back)."""
    return scenario.to_dict(), scenario.source, str(scenario.base_dir), dict(scenario.held_files)


def _scatter(client: Any, scenario: Scenario):
    """The scenario's payload on every worker, under a key of this run's own. (A key hashed from
    the data would be the same for every run of one scenario: a run could then find its payload
    being released by the previous run, or by another client, and wait for it forever.)"""
    return client.scatter(payload_of(scenario), broadcast=True, hash=False)


def scenario_of(payload: tuple[dict, str, str, dict]) -> Scenario:
    data, source, base_dir, held = payload
    return Scenario.from_dict(data, source=source, base_dir=base_dir, held_files=held)


def variants_task(payload, overrides: dict[str, np.ndarray], size: int) -> dict[str, np.ndarray]:
    """One chunk of a sweep (or of :func:`~netbenefit.analysis.evaluate_variants`): its result columns."""
    return general_columns(scenario_of(payload), overrides, size)


def montecarlo_task(
    payload,
    distributions: dict,
    states: list[dict],
    size: int,
    out_of_range: str,
    keep_draws: bool = True,
    use_structure: bool = False,
):
    """One chunk of a Monte Carlo run: ``(overrides, columns)``, drawn from the streams' ``states``
    (the overrides empty when the draws are not kept: less to send back); on the model's structure
    as in one process when ``use_structure`` (:mod:`netbenefit.analysis.structure`)."""
    scenario = scenario_of(payload)
    overrides = {}
    for (key, distribution), state in zip(distributions.items(), states, strict=True):
        generator = np.random.Generator(np.random.PCG64())
        generator.bit_generator.state = state
        overrides[key] = drawn_values(scenario, key, distribution.draw(generator, size), out_of_range)
    if use_structure:
        columns = columns_on_structure(scenario, plan_for(scenario, distributions), overrides, size)
    else:
        columns = general_columns(scenario, overrides, size)
    return (overrides if keep_draws else {}), columns


def _ranges(size: int, chunk_size: int) -> list[tuple[int, int]]:
    return [(start, min(size, start + chunk_size)) for start in range(0, size, chunk_size)]


def _gather_in_order(futures, ranges, progress) -> Iterator:
    try:
        for (start, stop), future in zip(ranges, futures, strict=True):
            value = future.result()
            if progress is not None:
                progress.update(stop - start)
            yield start, stop, value
    finally:  # a run stopped early (an error, Ctrl-C) leaves no task behind on the cluster
        for future in futures:
            if not future.done():
                future.cancel()


def variants_chunks(
    client: Any, scenario: Scenario, checked: Mapping[str, np.ndarray], size: int, chunk_size: int, progress=None
) -> Iterator[tuple[int, int, Mapping[str, np.ndarray], dict[str, np.ndarray]]]:
    """As :func:`netbenefit.analysis.variants.iter_chunks`, each chunk a task on ``client``."""
    payload = _scatter(client, scenario)
    ranges = _ranges(size, chunk_size)
    futures = []
    for start, stop in ranges:
        overrides = {key: array[start:stop] for key, array in checked.items()}
        futures.append(client.submit(variants_task, payload, overrides, stop - start, pure=False))
    for start, stop, columns in _gather_in_order(futures, ranges, progress):
        yield start, stop, {key: array[start:stop] for key, array in checked.items()}, columns


def montecarlo_chunks(
    client: Any,
    scenario: Scenario,
    size: int,
    distributions: dict,
    generators: list[np.random.Generator],
    chunk_size: int,
    out_of_range: str,
    progress=None,
    keep_draws: bool = True,
    use_structure: bool = False,
) -> Iterator[tuple[int, int, Mapping[str, np.ndarray], dict[str, np.ndarray]]]:
    """As :func:`netbenefit.analysis.variants.iter_chunks` for Monte Carlo, each chunk a task
    (without the drawn values when ``keep_draws`` is False; on the model's structure when
    ``use_structure``)."""
    payload = _scatter(client, scenario)
    ranges = _ranges(size, chunk_size)
    futures = []
    for start, stop in ranges:
        states = [generator.bit_generator.state for generator in generators]
        futures.append(
            client.submit(
                montecarlo_task,
                payload,
                distributions,
                states,
                stop - start,
                out_of_range,
                keep_draws,
                use_structure,
                pure=False,
            )
        )
        for distribution, generator in zip(distributions.values(), generators, strict=True):
            distribution.draw(generator, stop - start)  # the next chunk starts after these draws
    for start, stop, (overrides, columns) in _gather_in_order(futures, ranges, progress):
        yield start, stop, overrides, columns


#: How long to wait for the scheduler to answer before giving up. [seconds]
CONNECT_TIMEOUT_SECONDS = 5.0  # not a statutory number: a scheduler on a network answers in well under a second
#: The schemes of a scheduler's address that a client can connect to.
SCHEDULER_SCHEMES = ("tcp", "tls", "ws", "wss")


def scheduler_address(address: str) -> str:
    """``address`` checked before anything connects: ``[scheme://]host:port`` with a scheme of
    :data:`SCHEDULER_SCHEMES` (default tcp), a host and a port from 1 to 65535. Raises ScenarioError."""
    text = str(address).strip()
    example = "give an address such as tcp://10.0.0.5:8786"
    scheme, separator, rest = text.partition("://")
    if not separator:
        scheme, rest = "tcp", text
    if scheme.lower() not in SCHEDULER_SCHEMES:
        raise ScenarioError(
            "--scheduler", "", f"{text!r} is not a scheduler address: the scheme must be one of "
            f"{', '.join(SCHEDULER_SCHEMES)}; {example}"
        )
    try:
        parts = urllib.parse.urlsplit(f"{scheme}://{rest}")
        host, port = parts.hostname, parts.port
    except ValueError as error:
        raise ScenarioError("--scheduler", "", f"{text!r} is not a scheduler address ({error}); {example}") from None
    if not host or port is None or not 1 <= port <= 65535 or parts.path not in ("", "/") or parts.query:
        problem = "no host" if not host else "no port" if port is None else "a port out of range or a path"
        raise ScenarioError("--scheduler", "", f"{text!r} is not a scheduler address ({problem}); {example}")
    return f"{scheme.lower()}://{rest.rstrip('/')}"


def check_timeout(timeout) -> None:
    """Refuse a wait for the scheduler that is not a number of seconds > 0 (``--scheduler-timeout``)."""
    if not (isinstance(timeout, int | float) and math.isfinite(timeout) and timeout > 0):
        raise ScenarioError("--scheduler-timeout", "", f"must be a number of seconds > 0, got {timeout!r}")


def connect(address: str, timeout: float = CONNECT_TIMEOUT_SECONDS):
    """A ``distributed.Client`` of the scheduler at ``address``, checked first
    (:func:`scheduler_address`); waits at most ``timeout`` seconds for it. Raises ScenarioError
    without dask, for a malformed address, or when no scheduler answers there."""
    address = scheduler_address(address)
    check_timeout(timeout)
    try:
        from distributed import Client
    except ImportError:
        raise ScenarioError(
            "--scheduler", "", "running on a Dask cluster needs dask: pip install 'netbenefit[dask]'"
        ) from None
    try:
        return Client(address, timeout=timeout)
    except (OSError, TimeoutError) as error:
        raise ScenarioError("--scheduler", "", f"cannot reach the Dask scheduler at {address}: {error}") from None
    except Exception as error:  # noqa: BLE001 - something answered that is not a Dask scheduler
        raise ScenarioError(
            "--scheduler", "", f"no Dask scheduler answered at {address} ({type(error).__name__}: {error})"
        ) from None
