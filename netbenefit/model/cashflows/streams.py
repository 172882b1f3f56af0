"""The taxes step of the model: the benefit streams of the built-in revenue drivers, and their sum.

Each stream is a :class:`~netbenefit.model.cashflows.computation.Component`: a base array times column
factors, so that many variants are summed in one pass (:func:`net_benefits`).
"""

from __future__ import annotations

import numpy as np

from ...law import taxes
from ...law.taxes import gross_income_tax  # the single-filer schedule of the v1 `income_tax: progressive`
from .. import methods
from .computation import Component


def income_tax_of_operations(inputs, jobs, wages, salary, withholding, growth) -> tuple:
    """The Gross Income Tax on the wages of the operations, as ``(base, factors)`` of a
    :class:`~netbenefit.model.cashflows.computation.Component`: the v1 single-filer schedule at the
    median (``progressive``), the N.J.S.A. 54A:2-1 brackets on a lognormal law of wages
    (``brackets``), or an effective rate; times the share of the withholdings subject to it."""
    number = inputs.number
    income_tax = inputs.scenario.revenue.income_tax
    if income_tax == "progressive":  # v1: single-filer schedule at the median, no exemption
        return (jobs * gross_income_tax(salary), (withholding,))
    if income_tax is not None and income_tax.method == "brackets":
        # N.J.S.A. 54A:2-1 schedules on a lognormal distribution of wages, less the 54A:3-1 exemptions.
        key = "revenue.income_tax.filing_status."
        shares = (
            {"single": 1.0}  # no filing_status: every job a single filer
            if income_tax.filing_status is None
            else {status: number(key + status) for status in taxes.FILING_STATUSES}
        )
        sigma = number("revenue.income_tax.wage_dispersion")
        index = np.where(inputs.flag("revenue.index_brackets"), growth, 1.0)
        per_job = taxes.expected_gross_income_tax(
            salary,
            sigma,
            shares,
            index=index,
            dependents=number("revenue.income_tax.dependents_per_return"),
            property_tax=number("revenue.income_tax.property_tax_deduction"),
        )
        if methods.earned_income_credit_netted(inputs.scenario):  # N.J.S.A. 54A:4-7, refundable
            key = "revenue.income_tax.qualifying_children."
            children = (
                {"none": 1.0}  # not given: no qualifying child, the smallest credit
                if income_tax.qualifying_children is None
                else {row: number(key + row) for row in taxes.QUALIFYING_CHILDREN}
            )
            per_job = per_job - taxes.expected_nj_earned_income_credit(salary, sigma, shares, children, index=index)
        return (jobs * per_job, (withholding,))
    if income_tax is not None:  # method: effective_rate
        return (wages, (number("revenue.income_tax.rate") * withholding,))
    return (wages, (number("revenue.income_tax_effective_rate") * withholding,))


def driver_components(
    inputs, prefix, phase_number, jobs, wages, salary, capital, construction_wages, sales_tax_rate, growth, years
):
    """Streams of the built-in revenue drivers for one phase (docs/scenario-format.md, "Benefit streams")."""
    number = inputs.number
    revenue = inputs.scenario.revenue
    withholding = number(prefix + "jobs.nj_withholding_share")
    # Only withholdings subject to the NJ Gross Income Tax yield it, 71(d). Each stream is a base
    # array times column factors (Component), so that many variants are summed in one pass.
    operations_income_tax = income_tax_of_operations(inputs, jobs, wages, salary, withholding, growth)
    spending_share = number("revenue.taxable_spending_share")
    direct = {
        ("operations", "income_tax", "gross_income_tax"): operations_income_tax,
        ("operations", "spending_sales_tax", "sales_and_use_tax"): (wages, (spending_share * sales_tax_rate,)),
        ("construction", "construction_income_tax", "gross_income_tax"): (
            construction_wages,
            (number("revenue.construction_income_tax_rate"),),
        ),
        ("construction", "construction_spending_sales_tax", "sales_and_use_tax"): (
            construction_wages,
            (spending_share, sales_tax_rate),
        ),
    }
    # Multipliers are total / direct; the indirect and induced part is (multiplier - 1) x direct.
    effect = {
        "operations": inputs.multiplier("earnings_multiplier") - 1.0,
        "construction": inputs.multiplier("construction_earnings_multiplier") - 1.0,
    }
    components = []
    for (source, name, tax), (base, factors) in direct.items():
        components.append(
            Component(phase_number, name, source, "direct", "revenue", False, tax=tax, base=base, factors=factors)
        )
        components.append(
            Component(
                phase_number,
                name,
                source,
                "indirect_and_induced",
                "revenue",
                False,
                tax=tax,
                base=base,
                factors=(*factors, effect[source]),
            )
        )
    components.append(
        Component(
            phase_number,
            "construction_sales_tax",
            "construction",
            "direct",
            "revenue",
            False,
            tax="sales_and_use_tax",
            base=capital,
            factors=(number("revenue.construction_taxable_share"), sales_tax_rate),
        )
    )
    if phase_number == 1:  # the business's CBT, in each initial-phase year with jobs in place
        if revenue.allocated_taxable_net_income is not None:  # N.J.S.A. 54:10A-5, 54:10A-5.41, by tax year
            base = number("revenue.allocated_taxable_net_income") * growth
            tax_years = taxes.tax_years(inputs.scenario.approval, years)[None, :]
            cbt = taxes.corporation_business_tax(base, tax_years)
        else:  # a flat year-1 amount, growing with inflation
            cbt = number("revenue.corporate_business_tax") * growth
        components.append(
            Component(
                phase_number,
                "corporation_business_tax",
                "operations",
                "direct",
                "revenue",
                False,
                tax="corporation_business_tax",
                base=jobs > 0,  # the years with jobs in place
                factors=(cbt,),  # (1 or n, years): no (n, years) product until the values are read
            )
        )
    return components


def net_benefits(components: list[Component], horizon: int) -> np.ndarray:
    """Counted revenues minus costs in each year, ``(1 or n, years)``.

    Abated streams are left out, 71(a)(5)(e). With one variant, each stream's values are added in
    turn (the per-stream sums the tables show). With many, components sharing a base array are
    added as ``base x (sum of signed factor products)``: one pass over the ``(n, years)`` array
    per distinct base, whatever the number of streams and effects (:func:`fused_net_benefits`).
    """
    counted = [component for component in components if not component.abated]
    if any(np.ndim(c.base) == 2 and c.base.shape[0] > 1 for c in counted) or any(
        np.ndim(f) == 2 and np.shape(f)[0] > 1 for c in counted for f in c.factors
    ):
        return fused_net_benefits(counted, horizon)
    net = np.zeros((1, horizon))
    for component in sorted(counted, key=lambda component: component.values.shape[0]):  # stable
        operation = np.add if component.kind == "revenue" else np.subtract
        if component.values.shape[0] > net.shape[0]:
            net = operation(net, component.values)  # the first varying stream: a new array, owned here
        else:
            operation(net, component.values, out=net)
    return net


def fused_net_benefits(counted: list[Component], horizon: int) -> np.ndarray:
    """``sum over components of sign x base x product of factors``, grouped by base array; a
    boolean base adds its coefficient where it is true, in one pass (no product to build)."""
    groups: dict[int, list] = {}  # id(base) -> [base, summed signed coefficient]
    for component in counted:
        coefficient = 1.0 if component.kind == "revenue" else -1.0
        for factor in component.factors:
            coefficient = coefficient * factor
        group = groups.setdefault(id(component.base), [component.base, 0.0])
        group[1] = group[1] + coefficient
    pairs = list(groups.values())
    shapes = [np.broadcast_shapes(np.shape(base), np.shape(coefficient)) for base, coefficient in pairs]
    shape = np.broadcast_shapes((1, horizon), *shapes)
    full = [i for i, term_shape in enumerate(shapes) if term_shape == shape]
    if not full:
        net = np.zeros(shape)
    else:
        base, coefficient = pairs.pop(full[0])
        net = np.multiply(base, coefficient)  # a new array, owned here
    scratch = None  # one buffer for the other full-size terms (no new array for each)
    for base, coefficient in pairs:
        if isinstance(base, np.ndarray) and base.dtype == np.bool_:  # years with jobs: added where true
            np.add(net, coefficient, out=net, where=base)
        elif np.broadcast_shapes(np.shape(base), np.shape(coefficient)) == shape:
            scratch = np.empty(shape) if scratch is None else scratch
            np.add(net, np.multiply(base, coefficient, out=scratch), out=net)
        else:
            np.add(net, np.multiply(base, coefficient), out=net)
    return net
