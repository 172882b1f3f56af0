"""``netbenefit portfolio FILE... --out DIR``: several applications by New Jersey State fiscal year.

A FILE may be a scenario file or a folder (its ``*.yaml`` scenario files, in name order). The
folder receives ``fiscal_years.csv`` (the totals by fiscal year), ``applications.csv``,
``applications_by_fiscal_year.csv``, ``portfolio.xlsx`` (live SUM formulas), ``portfolio.html``
and the charts (``charts/``); see :mod:`netbenefit.views.portfolio_files`. Every option, every
application and (with ``--montecarlo``) every drawn value is checked before any line is printed or
anything written; the folder rules of ``compare`` apply (``--force``, one run per folder,
:mod:`netbenefit.io.run_folder`).

``--regions``: the credits awarded in the north and the south against the regional split of the
Aspire and Emerge cap (secondary), by each application's ``location.region``.
``--cap USD``: a cap on the credits awarded (eligible applications) in each fiscal year, given by the user
(the statute's figure for Emerge could not be read; docs/portfolio.md): the headroom under it.

``--montecarlo PORTFOLIO.yaml``: the portfolio Monte Carlo of that file
(:mod:`netbenefit.analysis.portfolio.montecarlo`), written to ``montecarlo_fiscal_years.csv``; its
applications are then the file's, and no FILE is given. ``--dask`` runs it on a LocalCluster,
``--scheduler ADDRESS`` on a running cluster; the percentiles are the same for the same seed.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from pathlib import Path

from ...errors import ScenarioError
from ...io.run_folder import check_unlocked, one_run
from ...io.safe_text import terminal, terminal_lines
from ...io.writing import atomic_write, signals_held
from ...labels import money_exact
from ...model.evaluate import evaluate
from .options import (
    add_scheduler_option,
    check_scheduler_options,
    cluster_failures,
    dask_client,
    refuse_apart,
    scenario_inputs,
)


def register(subparsers) -> None:
    parser = subparsers.add_parser("portfolio", help="several applications by State fiscal year, with a cap headroom")
    parser.add_argument("files", type=Path, nargs="*", help="scenario files or folders of them")
    parser.add_argument("--out", type=Path, required=True, help="output folder")
    parser.add_argument("--force", action="store_true", help="write into a non-empty output folder")
    parser.add_argument("--cap", type=float, default=None, metavar="USD", help="cap on credits awarded per fiscal year")
    parser.add_argument(
        "--regions", action="store_true", help="awards in the north and south against the regional split of the cap"
    )
    parser.add_argument("--svg", action="store_true", help="write each chart as SVG as well as PNG")
    parser.add_argument("--charts", choices=("all", "none"), default="all", help="every chart (default) or none")
    parser.add_argument("--montecarlo", type=Path, metavar="PORTFOLIO", help="a portfolio file: run its Monte Carlo")
    parser.add_argument("--draws", type=int, default=None, help="Monte Carlo draws (default: the file's, or 10,000)")
    parser.add_argument("--seed", type=int, default=None, help="Monte Carlo seed (default: the file's)")
    parser.add_argument("--dask", action="store_true", help="run the Monte Carlo on a local Dask cluster")
    add_scheduler_option(parser)
    parser.set_defaults(handler=run)


def _client(args: argparse.Namespace):
    client = dask_client(args)
    if client is None and args.dask:
        try:
            from distributed import Client
        except ImportError:
            raise ScenarioError("--dask", "", "running on Dask needs dask: pip install 'netbenefit[dask]'") from None
        from ...analysis.portfolio.montecarlo import local_cluster  # pandas: deferred past start-up

        started = None
        try:
            # a stop while the cluster starts is acted on once it has started, and closes it whole
            with _workers_quiet(), signals_held():
                started = Client(local_cluster())
        except BaseException:  # a stop received while the cluster started: close it, then stop
            _close(started, local=True)
            raise
        client = started
    return client


def _close(client, *, local: bool) -> None:
    """Close ``client`` (and its local cluster); a cluster that a stop interrupted while it
    started may fail to close cleanly, which is not the command's error to report."""
    if client is None:
        return
    cluster = getattr(client, "cluster", None)
    try:
        client.close()
        if local and cluster is not None:
            cluster.close()
    except Exception:  # noqa: BLE001 - best effort: the run's own outcome is what is reported
        pass


@contextlib.contextmanager
def _workers_quiet():
    """Start a local cluster with the standard error of this process pointed at ``os.devnull``:
    the worker processes it starts inherit it, so that nothing they print (a KeyboardInterrupt
    of their own when Ctrl-C, sent by the terminal to the whole process group, reaches them too; a
    worker's log) reaches the command's stderr. Their failures reach the client as errors, which
    the command reports in its own line. The command's stderr is put back as soon as the cluster
    has started (or failed to: a Ctrl-C meanwhile stops the command as anywhere else)."""
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):  # no standard error to point elsewhere
        yield
        return
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, 2)
        finally:
            os.close(null)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def check_options(args: argparse.Namespace) -> None:
    """Every option checked before any file is read: the cap; the Monte Carlo's options only with
    ``--montecarlo`` (refused apart, not ignored); ``--draws`` and ``--seed`` in range; the
    scheduler's address. Raises ScenarioError."""
    from ...analysis.portfolio.book import check_cap  # pandas: deferred past start-up

    check_cap(args.cap)
    svg = [("--svg", args.svg)]  # refused apart, never ignored
    refuse_apart("--charts all", args.charts != "none", svg, "is about charts; --charts none draws none")
    if args.montecarlo is None:
        given = [
            option
            for option, value in (
                ("--draws", args.draws),
                ("--seed", args.seed),
                ("--dask", args.dask or None),
                ("--scheduler", args.scheduler),
                ("--scheduler-timeout", args.scheduler_timeout),
            )
            if value is not None
        ]
        if given:
            raise ScenarioError(given[0], "", "runs the Monte Carlo: give it with --montecarlo PORTFOLIO.yaml")
        return
    from ...analysis.portfolio.portfolio_file import check_run_arguments  # pandas: deferred past start-up

    check_run_arguments("command line", args.draws, args.seed, prefix="--")
    if args.dask and args.scheduler is not None:
        raise ScenarioError("--dask", "", "give either --dask (a local cluster) or --scheduler ADDRESS, not both")
    check_scheduler_options(args)


def run(args: argparse.Namespace) -> int:
    from ...views.result_files import (  # the views that write files: deferred past start-up
        check_output_folder,
        csv_bytes,
        prepare_output_folder,
    )

    check_options(args)  # every option refused before any work
    check_output_folder(args.out, args.force)
    check_unlocked(args.out)
    book = run_mc = None
    if args.montecarlo is not None:
        if args.files:
            raise ScenarioError(str(args.montecarlo), "", "give either scenario FILEs or --montecarlo, not both")
        from ...analysis.portfolio.portfolio_file import load_portfolio_file  # pandas: deferred past start-up

        book = load_portfolio_file(args.montecarlo)
        scenarios = list(book.scenarios)
    else:
        if not args.files:
            raise ScenarioError("portfolio", "", "give scenario files or folders, or --montecarlo PORTFOLIO.yaml")
        from ...analysis.portfolio.book import scenario_files  # pandas: deferred past start-up

        scenarios = scenario_files(args.files)
    scenarios = scenario_inputs(args, scenarios)  # a workbook among them read with --scenario
    results = [evaluate(item) for item in scenarios]  # every application first: nothing printed on error
    from ...analysis.portfolio import portfolio  # pandas: deferred past start-up

    book_view = portfolio(results, cap=args.cap, regions=args.regions)
    if book is not None:  # the drawn values are checked as they are drawn: before any line
        from ...analysis.keys import CLIP_HINT, OutOfRangeError  # pandas: deferred past start-up
        from ...analysis.portfolio.montecarlo import portfolio_montecarlo  # pandas: deferred past start-up

        client = None
        try:
            client = _client(args)
            with cluster_failures(client, "--scheduler" if args.scheduler is not None else "--dask"):
                run_mc = portfolio_montecarlo(book, draws=args.draws, seed=args.seed, client=client)
        except OutOfRangeError as error:  # this command has no --clip: the advice it can follow
            hint = "; choose a distribution in the portfolio file that stays inside the range"
            raise ScenarioError(error.source, error.key, error.problem.replace(CLIP_HINT, hint)) from None
        finally:
            _close(client, local=args.dask)
    folder = prepare_output_folder(args.out, args.force)
    for result in results:
        print(
            terminal(
                f"{result.name}: approved {result.scenario.approval.isoformat()}; {result.verdict()}; "
                f"credits {money_exact(result.requested_credits)}"
            ),
            flush=True,
        )
    from ...views.portfolio_files import write_portfolio  # pandas: deferred past start-up

    with one_run(folder) as run:
        formats = ("png", "svg") if args.svg else ("png",)
        written = run.wrote(write_portfolio(book_view, folder, formats=formats, charts=args.charts == "all"))
        if run_mc is not None:
            table = run_mc.fiscal_years.reset_index()
            data = csv_bytes(list(table.columns), list(table.itertuples(index=False, name=None)))
            path = folder / "montecarlo_fiscal_years.csv"
            atomic_write(path, lambda temporary: Path(temporary).write_bytes(data))
            written.append(path)
    print(terminal_lines(book_view.summary()))
    if run_mc is not None:
        print(terminal_lines(str(run_mc)))
    print(terminal(f"wrote {len(written)} files to {folder}"))
    return 0
