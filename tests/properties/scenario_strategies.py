"""Hypothesis strategies for VALID v1 scenarios, as the plain dicts a YAML file would give.

Every key of the v1 contract (scenario-format, "the v1 contract") is drawn: business and
location flags, facility portions, capital investment by year, jobs with a ramp and salary
growth, the award as ``annual_credit`` or ``per_new_job`` (+ ``per_retained_job``), the
commitment with a fractional period and extended years, revenue drivers with an effective or a
progressive income tax, explicit revenue, cost and abated streams, attestations with the
prevailing-wage exemption, and later phases with their ``start_year``.

Ranges are those of real applications (up to $10M a year of credits, 2,000 jobs, 30-year streams),
so that every drawn scenario evaluates: the initial phase always requests a positive credit.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from hypothesis import strategies as st

USES = ["industrial", "warehousing", "logistics", "research_and_development", "other"]
WORKS = ["rehabilitation", "new_construction"]
LOCATION_FLAGS = [
    "qualified_incentive_area",
    "qualified_incentive_tract",
    "government_restricted_municipality",
    "distressed_municipality",
    "enhanced_area",
    "mega_project",
]

shares = st.floats(0.0, 1.0, allow_nan=False)
flags = st.booleans()
optional_flags = st.none() | st.booleans()


def money(low: float = 0.0, high: float = 1e7):
    """A USD amount: an integer or a float, as a scenario file may write either."""
    return st.one_of(st.integers(int(low), int(high)), st.floats(low, high, allow_nan=False, allow_infinity=False))


def counts(low: int = 0, high: int = 2000):
    return st.one_of(st.integers(low, high), st.floats(float(low), float(high)))


def by_year(max_year: int = 30, high: float = 5e6, min_size: int = 0):
    return st.dictionaries(st.integers(1, max_year), money(0.0, high), min_size=min_size, max_size=8)


@st.composite
def jobs(draw, *, with_salary: bool, at_least_one_new: bool = False) -> dict[str, Any]:
    data: dict[str, Any] = {
        "new": draw(counts(1 if at_least_one_new else 0, 2000)),
        "nj_withholding_share": draw(shares),
    }
    if draw(flags):
        data["retained"] = draw(counts(0, 2000))
    if draw(flags):
        data["ramp"] = draw(st.lists(shares, min_size=1, max_size=4))
    if with_salary:
        data["median_salary"] = draw(money(15000, 400000))
    if draw(flags):
        data["salary_growth"] = draw(st.floats(-0.05, 0.10))
    return data


@st.composite
def awards(draw, *, positive: bool) -> dict[str, Any]:
    """``annual_credit``, or ``per_new_job`` (+ ``per_retained_job``); ``positive``: never zero."""
    low = 1000.0 if positive else 0.0
    data: dict[str, Any]
    if draw(flags):
        data = {"annual_credit": draw(money(low, 1e7))}
    else:
        data = {"per_new_job": draw(money(low / 10, 20000))}
        if draw(flags):
            data["per_retained_job"] = draw(money(0, 10000))
    if draw(flags):
        data["eligibility_period_years"] = draw(st.integers(1, 7))  # section 69: at most seven years
    if draw(flags):
        data["first_credit_year"] = draw(st.integers(1, 3))
    return data


def period_years():
    """A commitment period: whole, half (10.5) or any fraction (0.25 years and up)."""
    return st.one_of(st.integers(1, 30), st.sampled_from([0.25, 0.5, 10.5, 7.75]), st.floats(0.25, 30.0))


@st.composite
def streams(draw, *, prefix: str, max_streams: int = 3, min_streams: int = 0) -> list[dict[str, Any]]:
    count = draw(st.integers(min_streams, max_streams))
    out = []
    for i in range(count):
        stream: dict[str, Any] = {
            "name": f"{prefix} stream {i}",
            "kind": draw(st.sampled_from(["revenue", "revenue", "cost"])),
            "by_year": draw(by_year(min_size=1)),
        }
        if draw(flags):
            stream["abated"] = draw(flags)
        out.append(stream)
    return out


@st.composite
def revenue(draw) -> dict[str, Any]:
    data: dict[str, Any] = {}
    choice = draw(st.sampled_from(["effective", "progressive", "none"]))
    if choice == "effective":
        data["income_tax_effective_rate"] = draw(st.floats(0.0, 0.1))
    elif choice == "progressive":
        data["income_tax"] = "progressive"
    for key in ("taxable_spending_share", "construction_taxable_share", "construction_labor_share"):
        if draw(flags):
            data[key] = draw(shares)
    if draw(flags):
        data["construction_income_tax_rate"] = draw(st.floats(0.0, 0.1))
    if draw(flags):
        data["earnings_multiplier"] = draw(st.floats(1.0, 3.0))
    if draw(flags):
        data["corporate_business_tax"] = draw(money(0, 2e6))
    return data


@st.composite
def attestations(draw) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for key in ("material_factor", "environmental_standards", "affirmative_action"):
        value = draw(optional_flags)
        if value is not None:
            data[key] = value
    if draw(flags):
        wage: dict[str, Any] = {"construction": draw(optional_flags), "building_services": draw(optional_flags)}
        if draw(flags):
            wage["exemption"] = {
                "landlord_not_assisted": draw(optional_flags),
                "landlord_party_to_contract": draw(optional_flags),
                "lease_share_of_facility": draw(st.none() | shares),
            }
        if draw(flags):
            wage["construction_starts_years_after_first_certificate"] = draw(st.none() | st.floats(0.0, 6.0))
        data["prevailing_wage"] = wage
    return data


@st.composite
def phases(draw, *, with_salary: bool) -> list[dict[str, Any]]:
    out = []
    for k in range(draw(st.integers(0, 2))):
        phase: dict[str, Any] = {
            "name": f"Phase {k + 2}",
            "start_year": draw(st.integers(0, 15)),
            "jobs": draw(jobs(with_salary=with_salary)),
            "award": draw(awards(positive=False)),
        }
        if draw(flags):
            phase["capital_investment"] = draw(by_year(max_year=5, high=5e7))
        if draw(flags):
            phase["commitment"] = {"period_years": draw(st.none() | period_years())}
        phase_streams = draw(streams(prefix=f"phase {k + 2}", max_streams=2))
        if phase_streams:
            phase["streams"] = phase_streams
        out.append(phase)
    return out


@st.composite
def scenario_dicts(draw, *, phased: bool | None = None) -> dict[str, Any]:
    """A valid v1 scenario as a plain dict. ``phased``: force later phases (True) or none (False)."""
    has_revenue = draw(flags)
    small = draw(flags)
    data: dict[str, Any] = {
        "name": draw(st.text(st.characters(codec="utf-8", exclude_categories=["Cs", "Cc"]), min_size=1, max_size=20)),
        "application_date": draw(
            st.dates(dt.date(2020, 7, 1), dt.date(2030, 12, 31)).map(lambda d: d if d.day % 2 else d.isoformat())
        ),
        "discount_rate": draw(st.floats(-0.05, 0.20)),
        "business": {
            "small_business": small,
            "targeted_industry": draw(flags),
            **({"full_time_employees_at_application": draw(counts(1, 100))} if small else {}),
        },
        "location": {flag: draw(flags) for flag in LOCATION_FLAGS},
        "facility": {
            "portions": draw(
                st.lists(
                    st.fixed_dictionaries(
                        {
                            "use": st.sampled_from(USES),
                            "work": st.sampled_from(WORKS),
                            "gross_leasable_area_sqft": counts(0, 1_000_000),
                        }
                    ),
                    min_size=1,
                    max_size=3,
                )
            ),
            "accommodates_share": draw(shares),
        },
        "jobs": draw(jobs(with_salary=has_revenue, at_least_one_new=True)),
        "award": draw(awards(positive=True)),
        "attestations": draw(attestations()),
    }
    if draw(flags):
        # any text but control characters (line breaks and tabs allowed) and lone surrogates: netbenefit.io.text_rule
        prose = st.characters(codec="utf-8", exclude_categories=["Cs", "Cc"], include_characters="\n\t\r")
        data["description"] = draw(st.text(prose, max_size=40))
    if draw(flags):
        data["timing"] = draw(st.sampled_from(["end_of_year", "mid_year"]))
    if draw(flags):
        data["threshold_override"] = draw(st.none() | st.floats(0.5, 6.0))
    if draw(flags):
        data["capital_investment"] = draw(by_year(max_year=5, high=1e8))
    if draw(flags):
        data["commitment"] = {
            "period_years": draw(st.none() | period_years()),
            "extended_years": draw(st.integers(0, 5)),
        }
    if has_revenue:
        data["revenue"] = draw(revenue())
    data["streams"] = draw(streams(prefix="top", min_streams=0 if has_revenue else 1))
    if phased is not False:
        later = draw(phases(with_salary=has_revenue))
        if phased and not later:
            later = [
                {
                    "name": "Phase 2",
                    "start_year": 3,
                    "jobs": draw(jobs(with_salary=has_revenue)),
                    "award": draw(awards(positive=True)),
                }
            ]
        data["phases"] = later
    return data


# ----------------------------------------------------------------------------------------------
# Transformations used by the properties
# ----------------------------------------------------------------------------------------------


def _scale_by_year(mapping: dict, factor: float) -> dict:
    return {year: amount * factor for year, amount in mapping.items()}


def scale_money(data: dict[str, Any], factor: float) -> dict[str, Any]:
    """The same scenario with every money amount (salaries, capital investment, streams, credits,
    per-job awards, CBT) multiplied by ``factor``. Rates, shares, jobs and areas are unchanged."""
    import copy

    data = copy.deepcopy(data)
    for record in [data, *data.get("phases", [])]:
        if "median_salary" in record["jobs"]:
            record["jobs"]["median_salary"] *= factor
        for key in ("annual_credit", "per_new_job", "per_retained_job"):
            if key in record["award"]:
                record["award"][key] *= factor
        if "capital_investment" in record:
            record["capital_investment"] = _scale_by_year(record["capital_investment"], factor)
        for stream in record.get("streams", []):
            stream["by_year"] = _scale_by_year(stream["by_year"], factor)
    if "corporate_business_tax" in data.get("revenue", {}):
        data["revenue"]["corporate_business_tax"] *= factor
    return data
