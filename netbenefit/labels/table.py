"""The one table of the scenario keys' labels: per key, the label and its unit, and the Excel number
format beside them where the workbook's Inputs sheet writes the key (with the unit that sheet shows
for a key the table gives none, a date).

:data:`SCENARIO_KEYS` is the table. :data:`SCENARIO_LABELS` (``label [unit]``, read by the charts,
the HTML report, the notebook views and the command line through :func:`netbenefit.labels.label`)
and the workbook's Inputs sheet (:data:`WORKBOOK_LABELS` and :func:`table_entry`, by the whole
dotted key) both read it.
"""

from __future__ import annotations

from typing import NamedTuple

#: Excel number formats of the workbook's cells (:mod:`netbenefit.views.workbook.layout` re-exports them).
MONEY_FORMAT, PERCENT_FORMAT, RATE_FORMAT = '"$"#,##0', "0.0%", "0.00%"
JOBS_FORMAT, WEIGHT_FORMAT, FACTOR_FORMAT = "#,##0.0", "0.00", "0.000000"
DATE_FORMAT, NUMBER_FORMAT = "yyyy-mm-dd", "General"


#: Units as people write them, for a view that shows the values of a share as percents (the charts,
#: the workbook's Inputs sheet): :func:`netbenefit.labels.spoken`.
SPOKEN_UNITS = {"share/year": "% a year", "share": "%", "USD/year": "USD a year"}


class WorkbookLabel(NamedTuple):
    """How the workbook's Inputs sheet writes a key: its Excel number format, and the unit it shows
    for a key whose table entry has none (``date``, ``north or south``; None: no unit)."""

    number_format: str
    unit: str | None = None


class Label(NamedTuple):
    """The label of a scenario key without its unit, its unit ("" for none) and, for a key the
    workbook's Inputs sheet writes, the workbook's number format (and unit where the key has none)."""

    text: str
    unit: str = ""
    workbook: WorkbookLabel | None = None

    @property
    def with_unit(self) -> str:
        """``Label [unit]``, or the label alone when it has no unit."""
        return f"{self.text} [{self.unit}]" if self.unit else self.text

    @property
    def in_workbook(self) -> tuple[str, str, str] | None:
        """(label, unit, number format) of the workbook's Inputs sheet, or None."""
        if self.workbook is None:
            return None
        number_format, unit = self.workbook
        # one wording per key: the table's label, its unit as people write it (the cell shows a
        # share as a percent); the workbook's unit only where the table gives none (a date)
        spoken = SPOKEN_UNITS.get(self.unit, self.unit)
        return (self.text, spoken or (unit or ""), number_format)


#: The one table: label and unit of every scenario key (dotted, list positions removed), and the
#: workbook's number format beside them.
SCENARIO_KEYS: dict[str, Label] = {
    "name": Label("Scenario name", "", WorkbookLabel(NUMBER_FORMAT)),
    "description": Label("Description", "", WorkbookLabel(NUMBER_FORMAT)),
    "application_date": Label("Application date, 71(f)", "", WorkbookLabel(DATE_FORMAT, "date")),
    "approval_date": Label("Approval date (project year 1)", "", WorkbookLabel(DATE_FORMAT, "date")),
    "discount_rate": Label("Discount rate", "share/year", WorkbookLabel(RATE_FORMAT)),
    "timing": Label("Discounting timing", "", WorkbookLabel(NUMBER_FORMAT, "end_of_year or mid_year")),
    "threshold_override": Label(
        "Threshold override, 71(a)(5)(f)",
        "ratio",
        WorkbookLabel(NUMBER_FORMAT),
    ),
    "business.small_business": Label("Small business", "yes/no", WorkbookLabel(NUMBER_FORMAT)),
    "business.targeted_industry": Label("Targeted industry", "yes/no", WorkbookLabel(NUMBER_FORMAT)),
    "business.full_time_employees_at_application": Label(
        "Full-time employees at application",
        "jobs",
        WorkbookLabel(JOBS_FORMAT),
    ),
    "location.qualified_incentive_area": Label(
        "In a qualified incentive area, 71(a)(3)",
        "yes/no",
        WorkbookLabel(NUMBER_FORMAT),
    ),
    "location.qualified_incentive_tract": Label(
        "In a qualified incentive tract", "yes/no", WorkbookLabel(NUMBER_FORMAT)
    ),
    "location.government_restricted_municipality": Label(
        "In a government-restricted municipality",
        "yes/no",
        WorkbookLabel(NUMBER_FORMAT),
    ),
    "location.distressed_municipality": Label("In a distressed municipality", "yes/no", WorkbookLabel(NUMBER_FORMAT)),
    "location.enhanced_area": Label("In an enhanced area", "yes/no", WorkbookLabel(NUMBER_FORMAT)),
    "location.mega_project": Label("Mega project", "yes/no", WorkbookLabel(NUMBER_FORMAT)),
    "location.region": Label("Region of the State, north or south", "", WorkbookLabel(NUMBER_FORMAT, "north or south")),
    "facility.portions.use": Label("Use of the premises portion", "", WorkbookLabel(NUMBER_FORMAT)),
    "facility.portions.work": Label("Work on the premises portion", "", WorkbookLabel(NUMBER_FORMAT)),
    "facility.portions.gross_leasable_area_sqft": Label("Gross leasable area", "sq ft", WorkbookLabel("#,##0")),
    "facility.accommodates_share": Label(
        "Share of jobs the facility accommodates, 71(d)",
        "share",
        WorkbookLabel(RATE_FORMAT),
    ),
    "capital_investment": Label("Capital investment", "USD", WorkbookLabel(MONEY_FORMAT)),
    "jobs.new": Label("New full-time jobs", "jobs", WorkbookLabel(JOBS_FORMAT)),
    "jobs.retained": Label("Retained full-time jobs", "jobs", WorkbookLabel(JOBS_FORMAT)),
    "jobs.ramp": Label("Job ramp-up by year", "share", WorkbookLabel(RATE_FORMAT)),
    "jobs.median_salary": Label("Median salary", "USD/year", WorkbookLabel(MONEY_FORMAT)),
    "jobs.salary_growth": Label("Salary growth", "share/year", WorkbookLabel(RATE_FORMAT)),
    "jobs.nj_withholding_share": Label(
        "Share of withholdings in New Jersey, 71(d)",
        "share",
        WorkbookLabel(RATE_FORMAT),
    ),
    "award.annual_credit": Label("Annual credit", "USD/year", WorkbookLabel(MONEY_FORMAT)),
    "award.per_new_job": Label("Credit per new job", "USD/job/year", WorkbookLabel(MONEY_FORMAT)),
    "award.per_retained_job": Label(
        "Credit per retained job",
        "USD/job/year",
        WorkbookLabel(MONEY_FORMAT),
    ),
    "award.section_75.qualified_opportunity_zone": Label(
        "In a qualified opportunity zone, s.75", "yes/no", WorkbookLabel(NUMBER_FORMAT)
    ),
    "award.section_75.employment_and_investment_corridor": Label(
        "In an employment and investment corridor, s.75",
        "yes/no",
        WorkbookLabel(NUMBER_FORMAT),
    ),
    "award.section_75.bonuses.name": Label("Section 75 bonus"),
    "award.section_75.bonuses.per_job": Label("Section 75 bonus per job", "USD/job/year", WorkbookLabel(MONEY_FORMAT)),
    "award.section_75.labor_harmony": Label("Labor harmony agreement, s.75", "yes/no", WorkbookLabel(NUMBER_FORMAT)),
    "award.section_75.cap_per_job": Label("Cap per job, s.75", "USD/job/year", WorkbookLabel(MONEY_FORMAT)),
    "award.eligibility_period_years": Label("Eligibility period", "years", WorkbookLabel(NUMBER_FORMAT)),
    "award.first_credit_year": Label("First credit year", "project year", WorkbookLabel(NUMBER_FORMAT)),
    "commitment.period_years": Label("Commitment period", "years", WorkbookLabel(NUMBER_FORMAT)),
    "commitment.extended_years": Label("Extended commitment, 71(a)(5)(d)", "years", WorkbookLabel(NUMBER_FORMAT)),
    "revenue.income_tax_effective_rate": Label("Effective income tax rate", "share", WorkbookLabel(RATE_FORMAT)),
    "revenue.income_tax": Label("Income tax model", "", WorkbookLabel(NUMBER_FORMAT)),
    "revenue.taxable_spending_share": Label(
        "Taxable share of spending from wages",
        "share",
        WorkbookLabel(RATE_FORMAT),
    ),
    "revenue.construction_taxable_share": Label(
        "Taxable share of capital investment",
        "share",
        WorkbookLabel(RATE_FORMAT),
    ),
    "revenue.construction_labor_share": Label(
        "Labor share of capital investment",
        "share",
        WorkbookLabel(RATE_FORMAT),
    ),
    "revenue.construction_income_tax_rate": Label(
        "Income tax rate on construction wages",
        "share",
        WorkbookLabel(RATE_FORMAT),
    ),
    "revenue.earnings_multiplier": Label(
        "Earnings multiplier, total / direct",
        "ratio",
        WorkbookLabel(NUMBER_FORMAT),
    ),
    "revenue.corporate_business_tax": Label("Corporation business tax", "USD/year", WorkbookLabel(MONEY_FORMAT)),
    "revenue.sales_and_use_tax_rate": Label("Sales and use tax rate", "share", WorkbookLabel(RATE_FORMAT)),
    "streams.name": Label("Stream name"),
    "streams.kind": Label("Stream kind (revenue or cost)", "", WorkbookLabel(NUMBER_FORMAT, "revenue or cost")),
    "streams.abated": Label("Abated, 71(a)(5)(e)", "yes/no", WorkbookLabel(NUMBER_FORMAT)),
    "streams.by_year": Label("Stream amount", "USD", WorkbookLabel(MONEY_FORMAT)),
    "streams.from_csv": Label("Stream read from CSV file", "", WorkbookLabel(NUMBER_FORMAT, "file")),
    "attestations.material_factor": Label(
        "Award is a material factor, 71(a)(4)",
        "yes/no",
        WorkbookLabel(NUMBER_FORMAT),
    ),
    "attestations.environmental_standards": Label(
        "Meets environmental standards, 71(a)(6)",
        "yes/no",
        WorkbookLabel(NUMBER_FORMAT),
    ),
    "attestations.affirmative_action": Label("Affirmative action, 71(a)(7)", "yes/no", WorkbookLabel(NUMBER_FORMAT)),
    "attestations.prevailing_wage.construction": Label(
        "Prevailing wage for construction, 71(a)(8)",
        "yes/no",
        WorkbookLabel(NUMBER_FORMAT),
    ),
    "attestations.prevailing_wage.building_services": Label(
        "Prevailing wage for building services, 71(a)(8)",
        "yes/no",
        WorkbookLabel(NUMBER_FORMAT),
    ),
    "attestations.prevailing_wage.exemption.landlord_not_assisted": Label(
        "Landlord not assisted, 71(a)(8)(a)(i)",
        "yes/no",
        WorkbookLabel(NUMBER_FORMAT),
    ),
    "attestations.prevailing_wage.exemption.landlord_party_to_contract": Label(
        "Landlord party to the contract, 71(a)(8)(a)(ii)",
        "yes/no",
        WorkbookLabel(NUMBER_FORMAT),
    ),
    "attestations.prevailing_wage.exemption.lease_share_of_facility": Label(
        "Leased share of the facility, 71(a)(8)(a)(iii)",
        "share",
        WorkbookLabel(RATE_FORMAT),
    ),
    "attestations.prevailing_wage.construction_starts_years_after_first_certificate": Label(
        "Construction starts after the first certificate, 71(a)(8)(b)",
        "years",
        WorkbookLabel(NUMBER_FORMAT),
    ),
    "inflation": Label("Inflation", "share/year"),
    "business.intent_to_remain_demonstrated": Label(
        "Intent to remain in the State demonstrated, 71(b)(1)(e)", "yes/no"
    ),
    "business.retained_jobs_at_application": Label("Retained full-time jobs at application, 71(c)(1)(e)-(f)", "jobs"),
    "business.naics": Label("Industry (NAICS code)"),
    "commitment.period_set_by_authority": Label("Commitment period set by the authority", "yes/no"),
    "commitment.recapture": Label("Recapture rule for leaving within the commitment period"),
    "commitment.recapture_interest.rate": Label("Interest on a recapture, simple, per year", "share"),
    "commitment.extension_years_counted": Label("Extended years maintained, counted as"),
    "revenue.income_tax.method": Label("Income tax method"),
    "revenue.income_tax.rate": Label("Effective income tax rate", "share"),
    "revenue.income_tax.filing_status.single": Label("Jobs filing single", "share"),
    "revenue.income_tax.filing_status.married_joint": Label("Jobs filing married jointly", "share"),
    "revenue.income_tax.wage_dispersion": Label("Wage dispersion, standard deviation of log wages", "log USD"),
    "revenue.index_brackets": Label("Tax brackets indexed to inflation", "yes/no"),
    "revenue.construction_earnings_multiplier": Label(
        "Construction earnings multiplier, total / direct",
        "ratio",
        WorkbookLabel(NUMBER_FORMAT),
    ),
    "revenue.employment_multiplier": Label(
        "Employment multiplier, total / direct jobs",
        "ratio",
        WorkbookLabel(NUMBER_FORMAT),
    ),
    "revenue.multiplier_table": Label("Multiplier table (CSV file)"),
    "revenue.allocated_taxable_net_income": Label("Allocated taxable net income, CBT base", "USD/year"),
    "streams.tax": Label("Tax of the stream"),
    "streams.grows_with_inflation": Label("Stream grows with inflation", "yes/no"),
    "shared": Label("Drivers the phases share"),
    "readings.several_locations": Label("Threshold where several locations apply"),
    "readings.capital_shortfall": Label("A capital investment shortfall, 71(b)(2), is"),
    "readings.retained_benefits": Label("Retained jobs in the benefits, 71(a)(5)"),
    "method": Label(
        "Method (set of conventions)",
        "",
        WorkbookLabel(NUMBER_FORMAT, "netbenefit or authority"),
    ),
    "revenue.income_tax.dependents_per_return": Label(
        "Dependants per return, N.J.S.A. 54A:3-1(b)(2)", "dependants", WorkbookLabel(NUMBER_FORMAT)
    ),
    "revenue.income_tax.property_tax_deduction": Label(
        "Property tax deduction per return, N.J.S.A. 54A:3A-17", "USD", WorkbookLabel(MONEY_FORMAT)
    ),
    "revenue.income_tax.earned_income_tax_credit": Label(
        "NJ earned income tax credit netted, N.J.S.A. 54A:4-7", "yes/no", WorkbookLabel(NUMBER_FORMAT)
    ),
    "revenue.income_tax.qualifying_children.none": Label("Returns without a qualifying child", "share"),
    "revenue.income_tax.qualifying_children.one": Label("Returns with one qualifying child", "share"),
    "revenue.income_tax.qualifying_children.two": Label("Returns with two qualifying children", "share"),
    "revenue.income_tax.qualifying_children.three_or_more": Label(
        "Returns with three or more qualifying children", "share"
    ),
    "readings.payroll": Label("Wages of the benefit streams (mean or median)"),
    "readings.withholding_weights": Label("71(d) across phases: shares weighted by"),
    "readings.first_report_basis": Label("First annual report compared with, N.J.A.C. 19:31U-1.14(b)"),
    "readings.stated_commitment_period": Label("A stated commitment period not set by the authority, 71(a)(5)"),
    "readings.recapture_table_years": Label("Recapture table read in years of"),
    "readings.floor_basis": Label("80 percent floor compared with, N.J.A.C. 19:31U-1.14(c)"),
    "readings.rerun_comparison": Label("76(a)(2) fall of a phased project read on"),
    "readings.reduction_recapture": Label("A reduction of certified jobs or salaries, C.34:1B-341(a)(4)"),
    # keys of a later phase that the initial phase has not (the others share the top level's labels)
    "phases.name": Label("Phase name"),
    "phases.start_year": Label("Phase start", "project year", WorkbookLabel(NUMBER_FORMAT)),
}

#: Label with unit of every scenario key (dotted, list positions removed).
SCENARIO_LABELS: dict[str, str] = {key: entry.with_unit for key, entry in SCENARIO_KEYS.items()}

#: The workbook's (label, unit, number format) of an input, by its dotted key (list positions
#: removed), for the keys the workbook's Inputs sheet writes with a number format.
WORKBOOK_LABELS: dict[str, tuple[str, str, str]] = {
    key: entry.in_workbook for key, entry in SCENARIO_KEYS.items() if entry.in_workbook
}


def table_entry(key: str) -> Label | None:
    """The table's entry of a dotted scenario key (``phases.0.jobs.new``, ``streams.2.name``): list
    positions removed; a later phase's own key (``phases.name``) first, else the top level's key
    that the phase repeats (``jobs.new``); None for a key the table does not hold.

    >>> table_entry("phases.0.jobs.new").text, table_entry("revenue.income_tax.method").text
    ('New full-time jobs', 'Income tax method')
    """
    named = [segment for segment in key.split(".") if not segment.isdigit()]
    entry = SCENARIO_KEYS.get(".".join(named))
    if entry is None and len(named) > 1 and named[0] == "phases":
        entry = SCENARIO_KEYS.get(".".join(named[1:]))
    return entry
