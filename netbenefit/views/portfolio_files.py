"""The files of ``netbenefit portfolio``: CSV tables, a workbook whose totals are live SUM
formulas, a self-contained HTML page, and the charts; and the portfolio's rich display in Jupyter.

Every file is written atomically (:func:`netbenefit.io.writing.atomic_write`); user text is written
through :mod:`netbenefit.io.safe_text` (escaped in HTML, guarded in CSV and workbook cells).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..analysis.portfolio.book import APPLICATION_COLUMNS, FISCAL_YEAR_COLUMNS
from ..io import safe_text
from ..io.safe_text import html as escape
from ..io.writing import NO_DATE, source_date, write_file
from ..labels import money_exact as money
from ..model.fiscal import BENEFIT_COLUMNS
from .charts.portfolio import PORTFOLIO_CHARTS
from .charts.printing import save_figure
from .charts.style import new_figure
from .html import figure_png_base64
from .html.table import Cell, table_html
from .result_files import csv_bytes, write_named_bytes

if TYPE_CHECKING:
    from ..analysis.portfolio.book import Portfolio

#: Files of the output folder besides the charts, in the order they are written.
TABLE_FILES = ("fiscal_years.csv", "applications.csv", "applications_by_fiscal_year.csv")
WORKBOOK_NAME, PAGE_NAME = "portfolio.xlsx", "portfolio.html"


# --- CSV --------------------------------------------------------------------------------------
def csv_files(portfolio: Portfolio) -> list[tuple[str, bytes]]:
    """``(name, contents)`` of the three CSV tables (:data:`TABLE_FILES`)."""
    totals = portfolio.fiscal_years.reset_index()
    columns = ["fiscal_year", *FISCAL_YEAR_COLUMNS]
    long = portfolio.by_application
    return [
        (TABLE_FILES[0], csv_bytes(columns, list(totals[columns].itertuples(index=False, name=None)))),
        (
            TABLE_FILES[1],
            csv_bytes(
                APPLICATION_COLUMNS,
                list(portfolio.applications[list(APPLICATION_COLUMNS)].itertuples(index=False, name=None)),
            ),
        ),
        (TABLE_FILES[2], csv_bytes(list(long.columns), list(long.itertuples(index=False, name=None)))),
    ]


# --- Workbook ---------------------------------------------------------------------------------
def _column(index: int) -> str:
    from xlsxwriter.utility import xl_col_to_name

    return xl_col_to_name(index)


def _formats(book) -> dict:
    """The cell formats of the workbook, by name (added in this order)."""
    return {
        "bold": book.add_format({"bold": True, "text_wrap": True, "valign": "top"}),
        "usd": book.add_format({"num_format": "$#,##0.00"}),
        "usd_bold": book.add_format({"num_format": "$#,##0.00", "bold": True}),
        "pct": book.add_format({"num_format": "0.0%"}),
    }


def _write_application_sheets(book, portfolio: Portfolio, formats: dict) -> None:
    """``Credits`` and ``Benefits``: fiscal year x application, the model's values, with a Total
    column and row of SUM formulas."""
    bold, usd, usd_bold = formats["bold"], formats["usd"], formats["usd_bold"]
    years = list(portfolio.fiscal_years.index)
    labels = list(portfolio.labels)
    last_row = len(years)  # rows 1..n_years hold the years (row 0 the header)
    for sheet_name, table in (("Credits", portfolio.credits_table()), ("Benefits", portfolio.benefits_table())):
        sheet = book.add_worksheet(sheet_name)
        sheet.write(0, 0, "Fiscal year", bold)
        for j, label in enumerate(labels, start=1):
            sheet.write_string(0, j, safe_text.cell(label), bold)
        total_col = len(labels) + 1
        sheet.write(0, total_col, "Total [USD, nominal]", bold)
        for i, year in enumerate(years, start=1):
            sheet.write_number(i, 0, int(year))
            for j, label in enumerate(labels, start=1):
                sheet.write_number(i, j, float(table.at[year, label]), usd)
            sheet.write_formula(i, total_col, f"=SUM(B{i + 1}:{_column(total_col - 1)}{i + 1})", usd_bold)
        sheet.write(last_row + 1, 0, "Total", bold)
        for j in range(1, total_col + 1):
            col = _column(j)
            sheet.write_formula(last_row + 1, j, f"=SUM({col}2:{col}{last_row + 1})", usd_bold)
        sheet.set_column(0, 0, 11)
        sheet.set_column(1, total_col, 16)
        sheet.freeze_panes(1, 1)


def _write_tax_sheet(book, portfolio: Portfolio, formats: dict) -> None:
    """``Benefits by tax``: fiscal year x tax, with a Total column and row of SUM formulas."""
    bold, usd, usd_bold = formats["bold"], formats["usd"], formats["usd_bold"]
    years = list(portfolio.fiscal_years.index)
    last_row = len(years)
    taxes = book.add_worksheet("Benefits by tax")
    taxes.write(0, 0, "Fiscal year", bold)
    for j, tax in enumerate(BENEFIT_COLUMNS, start=1):
        taxes.write(0, j, f"{tax.replace('_', ' ').capitalize()} [USD]", bold)
    taxes.write(0, len(BENEFIT_COLUMNS) + 1, "Total [USD]", bold)
    last_tax = _column(len(BENEFIT_COLUMNS))
    for i, year in enumerate(years, start=1):
        taxes.write_number(i, 0, int(year))
        for j, tax in enumerate(BENEFIT_COLUMNS, start=1):
            taxes.write_number(i, j, float(portfolio.fiscal_years.at[year, tax]), usd)
        taxes.write_formula(i, len(BENEFIT_COLUMNS) + 1, f"=SUM(B{i + 1}:{last_tax}{i + 1})", usd_bold)
    taxes.write(last_row + 1, 0, "Total", bold)
    for j in range(1, len(BENEFIT_COLUMNS) + 2):
        col = _column(j)
        taxes.write_formula(last_row + 1, j, f"=SUM({col}2:{col}{last_row + 1})", usd_bold)
    taxes.set_column(0, len(BENEFIT_COLUMNS) + 1, 18)


def _write_fiscal_year_sheet(book, portfolio: Portfolio, formats: dict) -> None:
    """``Fiscal years``, moved to the front and made active: every total a formula on the sheets
    by application (net, cumulative, headroom on the named cell ``cap``)."""
    bold, usd, usd_bold = formats["bold"], formats["usd"], formats["usd_bold"]
    years = list(portfolio.fiscal_years.index)
    last_row = len(years)
    total = _column(len(portfolio.labels) + 1)
    sheet = book.add_worksheet("Fiscal years")
    heads = [
        "Fiscal year",
        "Requested credits [USD]",
        "Counted benefits [USD]",
        "Benefits less credits [USD]",
        "Cumulative credits [USD]",
        "Cumulative benefits [USD]",
        "Applications approved",
        "Approved and passing 71(a)(5)",
        "Credits awarded, eligible applications [USD]",
        "Cap headroom [USD]",
    ]
    for j, head in enumerate(heads):
        sheet.write(0, j, head, bold)
    table = portfolio.fiscal_years
    for i, year in enumerate(years, start=1):
        r = i + 1
        sheet.write_number(i, 0, int(year))
        sheet.write_formula(i, 1, f"=Credits!{total}{r}", usd)
        sheet.write_formula(i, 2, f"=Benefits!{total}{r}", usd)
        sheet.write_formula(i, 3, f"=C{r}-B{r}", usd)
        sheet.write_formula(i, 4, f"=SUM(B$2:B{r})", usd)
        sheet.write_formula(i, 5, f"=SUM(C$2:C{r})", usd)
        sheet.write_number(i, 6, int(table.at[year, "approved"]))
        sheet.write_number(i, 7, int(table.at[year, "approved_passing"]))
        sheet.write_number(i, 8, float(table.at[year, "awarded"]), usd)
        sheet.write_formula(i, 9, f'=IF(ISNUMBER(cap),cap-I{r},"")', usd)
    sheet.write(last_row + 1, 0, "Total", bold)
    for j in (1, 2, 3, 6, 7, 8):
        col = _column(j)
        sheet.write_formula(last_row + 1, j, f"=SUM({col}2:{col}{last_row + 1})", usd_bold if j not in (6, 7) else bold)
    note_row = last_row + 3
    sheet.write(note_row, 0, "Cap [USD]", bold)
    if portfolio.cap is None:
        sheet.write_blank(note_row, 1, None, usd)
    else:
        sheet.write_number(note_row, 1, portfolio.cap, usd)
    book.define_name("cap", f"='Fiscal years'!$B${note_row + 1}")
    sheet.write_string(note_row + 1, 0, safe_text.cell(portfolio.cap_note))
    sheet.write_string(note_row + 2, 0, safe_text.cell(table.attrs.get("conventions", "")))
    sheet.set_column(0, 0, 12)
    sheet.set_column(1, 9, 18)
    sheet.freeze_panes(1, 1)
    book.worksheets_objs.insert(0, book.worksheets_objs.pop())  # the totals first
    sheet.activate()


def _write_applications_sheet(book, portfolio: Portfolio, formats: dict) -> None:
    """``Applications``: one row per application, ratios as percentages, amounts in USD."""
    bold, usd, pct = formats["bold"], formats["usd"], formats["pct"]
    apps = book.add_worksheet("Applications")
    for j, name in enumerate(APPLICATION_COLUMNS):
        apps.write(0, j, name, bold)
    for i, row in enumerate(portfolio.applications[list(APPLICATION_COLUMNS)].itertuples(index=False), start=1):
        for j, (name, value) in enumerate(zip(APPLICATION_COLUMNS, row, strict=True)):
            if isinstance(value, str):
                apps.write_string(i, j, safe_text.cell(value))
            elif name in ("ratio", "threshold"):
                apps.write_number(i, j, float(value), pct)
            elif name in ("requested_credits", "counted_benefits"):
                apps.write_number(i, j, float(value), usd)
            elif isinstance(value, bool):
                apps.write_boolean(i, j, bool(value))
            else:
                apps.write_number(i, j, float(value))
    apps.set_column(0, len(APPLICATION_COLUMNS), 16)


def write_portfolio_workbook(portfolio: Portfolio, path: Path) -> Path:
    """The workbook: ``Credits`` and ``Benefits`` (fiscal year x application, the model's values,
    with a Total column and row of SUM formulas), ``Benefits by tax`` (fiscal year x tax, likewise),
    ``Fiscal years`` (every total a formula on those
    sheets: net, cumulative, headroom on the named cell ``cap``) and ``Applications``."""

    def write(temporary: Path) -> None:
        import xlsxwriter

        options = {"strings_to_numbers": False, "strings_to_formulas": False, "strings_to_urls": False}
        book = xlsxwriter.Workbook(str(temporary), {**options, "in_memory": True})
        book.set_properties({"created": source_date() or dt.datetime(*NO_DATE, tzinfo=dt.UTC)})
        formats = _formats(book)
        _write_application_sheets(book, portfolio, formats)  # the order of the sheets as written
        _write_tax_sheet(book, portfolio, formats)
        _write_fiscal_year_sheet(book, portfolio, formats)
        _write_applications_sheet(book, portfolio, formats)
        book.set_calc_mode("auto")
        book.close()

    return write_file(path, write)


# --- HTML -------------------------------------------------------------------------------------
_STYLE = (
    "<style>.nb-portfolio table{border-collapse:collapse;font-size:12px}"
    ".nb-portfolio td,.nb-portfolio th{border:1px solid #ccc;padding:2px 6px;text-align:right}"
    ".nb-portfolio th{background:#f3f3f3}.nb-portfolio td.l,.nb-portfolio th.l{text-align:left}</style>"
)


def _fiscal_table_html(portfolio: Portfolio) -> str:
    table = portfolio.fiscal_years
    heads = [
        "Fiscal year",
        "Credits",
        "Benefits",
        "Benefits less credits",
        "Cumulative credits",
        "Approved",
        "Passing",
        "Requested",
        "Awarded (eligible)",
    ]
    if portfolio.cap is not None:
        heads.append("Cap headroom")
    rows = []
    for year, row in table.iterrows():
        cells = [
            f"FY{year}",
            money(row.credits),
            money(row.benefits),
            money(row.net_benefits),
            money(row.cumulative_credits),
            str(int(row.approved)),
            str(int(row.approved_passing)),
            money(row.requested),
            money(row.awarded),
        ]
        if portfolio.cap is not None:
            cells.append(money(row.cap_headroom))
        rows.append(cells)
    total = [
        "Total",
        money(portfolio.requested_credits),
        money(portfolio.counted_benefits),
        money(portfolio.counted_benefits - portfolio.requested_credits),
        "",
        str(len(portfolio.results)),
        str(portfolio.passing),
        money(portfolio.requested_credits),
        money(float(table["awarded"].sum())),  # an application that is not eligible awards nothing
    ]
    if portfolio.cap is not None:
        total.append("")
    rows.append([Cell(text, header=True) for text in total])
    return table_html(heads, rows)


def _applications_html(portfolio: Portfolio) -> str:
    heads = ["Application", "Approval", "Credits", "Counted benefits", "Ratio", "Threshold", "Test"]
    rows = [
        [
            Cell(row.application, cls="l"),
            row.approval_date,
            money(row.requested_credits),
            money(row.counted_benefits),
            f"{row.ratio:.1%}",
            f"{row.threshold:.0%} ({row.threshold_clause})",
            "passes" if row.passes else "FAILS",
        ]
        for row in portfolio.applications.itertuples(index=False)
    ]
    return table_html([Cell(heads[0], cls="l"), *heads[1:]], rows)


def portfolio_html(portfolio: Portfolio) -> str:
    """The portfolio in a notebook: the counts, the fiscal-year table, the applications."""
    return (
        f"{_STYLE}<div class='nb-portfolio'><p><b>{escape(len(portfolio.results))} applications</b>: "
        f"{escape(portfolio.passing)} pass the net benefit test, {escape(portfolio.failing)} fail; "
        f"{escape(portfolio.eligible)} eligible. Nominal USD.</p>"
        f"<p><small>{escape(portfolio.fiscal_years.attrs.get('conventions', ''))}. "
        f"{escape(portfolio.cap_note)}</small></p>"
        f"{_fiscal_table_html(portfolio)}<h4>Applications</h4>{_applications_html(portfolio)}</div>"
    )


def portfolio_page(portfolio: Portfolio, images: Sequence[tuple[str, str]] = ()) -> str:
    """A self-contained page: :func:`portfolio_html` and the charts (``(alt, base64 PNG)``)."""
    figures = "".join(
        f'<figure><img alt="{escape(alt)}" src="data:image/png;base64,{data}" style="max-width:100%"></figure>'
        for alt, data in images
    )
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        "<title>Emerge Program portfolio by State fiscal year</title></head><body>"
        "<h1>Emerge Program portfolio by State fiscal year</h1>"
        f"{portfolio_html(portfolio)}{figures}</body></html>\n"
    )


def _chart_images(portfolio: Portfolio) -> list[tuple[str, str]]:
    images = []
    for name, chart in PORTFOLIO_CHARTS.items():
        figure, ax = new_figure((11.0, 6.0))
        chart(portfolio, ax=ax)
        images.append((name.replace("_", " "), figure_png_base64(figure)))
    return images


def write_portfolio_page(portfolio: Portfolio, path: Path) -> Path:
    page = portfolio_page(portfolio, _chart_images(portfolio))
    return write_file(path, lambda temporary: temporary.write_text(page, encoding="utf-8"))


# --- The folder -------------------------------------------------------------------------------
def write_portfolio(
    portfolio: Portfolio, folder: Path, *, formats: Sequence[str] = ("png",), charts: bool = True
) -> list[Path]:
    """Everything ``netbenefit portfolio`` writes into ``folder``; returns the paths in order:
    :data:`TABLE_FILES`, ``portfolio.xlsx``, ``portfolio.html`` and ``charts/<name>.<format>``."""
    folder = Path(folder)
    written = write_named_bytes(folder, csv_files(portfolio))
    written.append(write_portfolio_workbook(portfolio, folder / WORKBOOK_NAME))
    written.append(write_portfolio_page(portfolio, folder / PAGE_NAME))
    if charts:
        for name, chart in PORTFOLIO_CHARTS.items():
            figure, ax = new_figure((11.0, 6.0))
            chart(portfolio, ax=ax)
            for image_format in formats:
                written.append(save_figure(figure, folder / "charts" / f"{name}.{image_format}"))
    return written
