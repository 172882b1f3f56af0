"""Options that only work together are refused apart, in every command, in one line (exit 2)
before anything is read or written, never silently ignored: the memo's options without ``--pdf``,
``report``'s ``--draws`` and ``--seed`` without ``--vary``, ``--force`` without ``--out FILE``, the
charts' options with ``--charts none``, the Monte Carlo's options of ``portfolio`` without
``--montecarlo``. ``--date`` takes exactly YYYY-MM-DD, as its help says."""

from __future__ import annotations

import contextlib
import datetime as dt
import io
from pathlib import Path

import pytest

from netbenefit import cli
from netbenefit.cli.commands.report import memo_options

ROOT = Path(__file__).resolve().parents[2]
PARTY = str(ROOT / "scenarios" / "party_city.yaml")
VARY = "jobs.new=uniform(100,200)"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(list(argv))
        except SystemExit as exit:  # the parser's own one-line error
            code = exit.code
    return code, out.getvalue(), err.getvalue()


HTML = ["report", PARTY, "--out", "{out}/r.html"]  # a report without --pdf
PDF = ["report", PARTY, "--out", "{out}/r.pdf", "--pdf"]  # a report with --pdf
APART = {
    # report: the memo's options shape the PDF
    "report --draws without --pdf": ([*HTML, "--draws", "50"], "--draws", "--pdf"),
    "report --seed without --pdf": ([*HTML, "--seed", "3"], "--seed", "--pdf"),
    "report --seed 0 without --pdf": ([*HTML, "--seed", "0"], "--seed", "--pdf"),
    "report --date without --pdf": ([*HTML, "--date", "2026-03-10"], "--date", "--pdf"),
    "report --preparer without --pdf": ([*HTML, "--preparer", "A"], "--preparer", "--pdf"),
    "report --appendix without --pdf": ([*HTML, "--appendix"], "--appendix", "--pdf"),
    "report --sensitivity without --pdf": ([*HTML, "--sensitivity"], "--sensitivity", "--pdf"),
    "report --vary without --pdf": ([*HTML, "--vary", VARY], "--vary", "--pdf"),
    "report --diff without --pdf": ([*HTML, "--diff", PARTY], "--diff", "--pdf"),
    # report: --draws and --seed set the Monte Carlo page
    "report --draws without --vary": ([*PDF, "--draws", "50"], "--draws", "--vary"),
    "report --seed without --vary": ([*PDF, "--seed", "3"], "--seed", "--vary"),
    "report --seed 0 without --vary": ([*PDF, "--seed", "0"], "--seed", "--vary"),
    # --force overwrites an --out file
    "sweep --force without --out": (["sweep", PARTY, "--set", "jobs.new=200,300", "--force"], "--force", "--out"),
    "montecarlo --force without --out": (
        ["montecarlo", PARTY, "--vary", VARY, "--draws", "10", "--force"], "--force", "--out",
    ),
    "schema --force without --out": (["schema", "--force"], "--force", "--out"),
    # the charts' options with no chart drawn
    "compare --svg with --charts none": (
        ["compare", PARTY, "--out", "{out}/c", "--svg", "--charts", "none"], "--svg", "--charts",
    ),
    "compare --no-cache with --charts none": (
        ["compare", PARTY, "--out", "{out}/c", "--no-cache", "--charts", "none"], "--no-cache", "--charts",
    ),
    "portfolio --svg with --charts none": (
        ["portfolio", PARTY, "--out", "{out}/p", "--svg", "--charts", "none"], "--svg", "--charts",
    ),
    # portfolio: the Monte Carlo's options (held since the fourth round)
    "portfolio --draws without --montecarlo": (
        ["portfolio", PARTY, "--out", "{out}/p", "--draws", "10"], "--draws", "--montecarlo",
    ),
}


@pytest.mark.parametrize("case", list(APART))
def test_an_option_without_the_one_it_works_with_is_refused_in_one_line(tmp_path, case):
    # Was: report accepted --draws and --seed without --vary (and without --pdf), silently ignored.
    argv, option, needed = APART[case]
    code, out, err = run(*[arg.format(out=tmp_path) for arg in argv])
    assert (code, out) == (2, ""), err
    assert err.count("\n") == 1 and err.startswith("netbenefit: ") and option in err and needed in err, err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("date", ["2026-W10-1", "20260310", "2026-3-10", "2026-03-10T00:00", "2026-13-01", "3/10/2026"])
def test_date_takes_exactly_yyyy_mm_dd(tmp_path, date):
    # Was: --date accepted 2026-W10-1 and 20260310 (read by date.fromisoformat) though its help says YYYY-MM-DD.
    code, out, err = run("report", PARTY, "--out", str(tmp_path / "r.pdf"), "--pdf", "--date", date)
    assert (code, out) == (2, "")
    assert err == f"netbenefit: argument --date: give a date as YYYY-MM-DD, not {date!r}\n"


def test_the_options_given_together_reach_the_memo():
    given = ["--vary", VARY, "--draws", "50", "--seed", "0", "--date", "2026-03-10"]
    args = cli.build_parser().parse_args(["report", PARTY, "--out", "r.pdf", "--pdf", *given])
    options = memo_options(args)
    assert (options["draws"], options["seed"], options["date"]) == (50, 0, dt.date(2026, 3, 10))
    alone = memo_options(cli.build_parser().parse_args(["report", PARTY, "--out", "r.pdf", "--pdf", "--vary", VARY]))
    assert "draws" not in alone and "seed" not in alone  # the memo's own defaults
