"""``netbenefit compare FILE... --out DIR``: several scenarios side by side, written to a folder.

The folder receives ``summary.csv``, ``cashflows/<scenario>.csv``, one workbook
``comparison.xlsx`` and the charts (``charts/``: PNG, and SVG too with ``--svg``). Every scenario
is evaluated before anything is written; a non-empty folder is refused unless ``--force`` is
given; each file is written to a temporary name and renamed into place. The folder holds one
run's outputs (:mod:`netbenefit.io.run_folder`): a manifest of them, and a lock while a run writes.


Each scenario's line (its ratio against its threshold) is printed once every scenario is
evaluated, so that a bad file after a good one prints nothing on stdout; a progress bar on stderr
(a terminal only) then counts the files written. The scenarios' charts
are drawn in parallel processes, one per core; ``--charts summary`` draws the comparison chart
alone, ``--charts none`` no chart. A chart whose inputs are unchanged since the previous run into the
folder, and whose file is still the one that run wrote, is kept as it is (:mod:`netbenefit.views.chart_cache`);
``--no-cache`` draws every chart.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ...io.run_folder import check_unlocked, one_run
from ...io.safe_text import terminal
from ...labels import margin_points
from ...model.compare import under_methods
from ...model.evaluate import evaluate
from ...model.methods import METHODS
from ...model.scenario import Scenario, load_scenario
from .options import refuse_apart, scenario_inputs


def register(subparsers) -> None:
    parser = subparsers.add_parser("compare", help="evaluate several scenarios and write a comparison")
    parser.add_argument("files", type=Path, nargs="+")
    parser.add_argument("--out", type=Path, required=True, help="output folder")
    parser.add_argument("--force", action="store_true", help="write into a non-empty output folder")
    parser.add_argument("--svg", action="store_true", help="write each chart as SVG as well as PNG")
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="draw every chart; by default a chart whose inputs and file are unchanged since the last run is kept",
    )
    parser.add_argument(
        "--charts",
        choices=("all", "summary", "none"),
        default="all",
        help="every chart (default), the comparison chart alone, or none",
    )
    parser.add_argument(
        "--method",
        type=_methods,
        default=None,
        metavar="M[,M]",
        help="evaluate each file under these sets of conventions, side by side: netbenefit, authority "
        "(default: each file's own method)",
    )
    parser.set_defaults(handler=run)


def _methods(text: str) -> tuple[str, ...]:
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    unknown = [name for name in names if name not in METHODS]
    if not names or unknown:
        raise argparse.ArgumentTypeError(
            f"{', '.join(unknown) or repr(text)}: not a method; choose from {', '.join(METHODS)}"
        )
    return names


def run(args: argparse.Namespace) -> int:
    from ...views.result_files import (  # the views that write files: deferred past start-up
        check_output_folder,
        file_count,
        prepare_output_folder,
        write_comparison,
    )

    charts = [("--svg", args.svg), ("--no-cache", args.no_cache)]  # refused apart, never ignored
    refuse_apart("--charts all or summary", args.charts != "none", charts, "is about charts; --charts none draws none")
    check_output_folder(args.out, args.force)  # a folder that may not be written: refused before any line
    check_unlocked(args.out)  # nor one another run is writing

    results = []
    for path in scenario_inputs(args, args.files):  # every scenario first: nothing printed nor written on error
        scenario = path if isinstance(path, Scenario) or args.method is None else load_scenario(path)
        variants = [scenario] if args.method is None else under_methods(scenario, args.method)
        results.extend(evaluate(variant) for variant in variants)
    folder = prepare_output_folder(args.out, args.force)
    for result in results:
        print(
            terminal(
                f"{result.name}: {result.verdict()}; margin {margin_points(result.margin, result.passes)}; "
                + (f"{result.extension_words()}; " if result.extension_decides else "")
                + f"{'eligible' if result.eligible else 'not eligible'}"
            ),
            flush=True,
        )
    formats = ("png", "svg") if args.svg else ("png",)
    bar = None
    if sys.stderr.isatty():
        from tqdm import tqdm

        bar = tqdm(total=file_count(results, formats, args.charts), unit="file", desc="Writing", leave=False)
    try:
        # a lock while writing; the previous run's leftovers removed after
        with one_run(folder, cache=not args.no_cache) as run:
            written = run.wrote(write_comparison(results, folder, formats=formats, charts=args.charts, progress=bar))
    finally:
        if bar is not None:
            bar.close()
    kept = f" ({len(run.kept)} chart files unchanged, kept)" if run.kept else ""
    print(terminal(f"wrote {len(written)} files to {folder}{kept}"))
    return 0
