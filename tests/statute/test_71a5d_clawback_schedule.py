"""The clawback schedule for the whole commitment: recapture within the commitment period and the
71(a)(5)(d) repayment of the incremental credit of an extended commitment, by years maintained.

Base: credits $100,000 a year for 7 years (award $700,000), commitment 10.5 years, rate 0.
The recapture applies to the credits less the incremental slice (a share INCREMENTAL / AWARD of
them), the extension repayment to that slice: no dollar twice.
"""

import hypothesis.strategies as st
import numpy as np
import pytest
from hypothesis import given, settings
from support import evaluate, scenario

import netbenefit
from netbenefit.law.rules.clawback import clawback_schedule, extended_years_maintained, recapture, table_share

# The extended-commitment project of the after-approval tests: benefits $210,000 a year in years
# 1..14; B0 (10.5 years) = $2,205,000 < 4 x $700,000; with 3 extended years $2,835,000 passes.
# Incremental credit = 700,000 x (1 - 551,250 / 700,000) = $148,750.
EXTENDED = {
    "commitment": {"extended_years": 3},
    "streams": [{"name": "state taxes", "kind": "revenue", "by_year": {y: 210000 for y in range(1, 15)}}],
}
INCREMENTAL = 148750.0
AWARD = 700000.0
BASE = 1.0 - INCREMENTAL / AWARD  # the share of the credits the recapture applies to


def schedule(**changes):
    return evaluate(**{**EXTENDED, **changes}).clawback_schedule.set_index("years_maintained")


def test_71a5d_schedule_columns_and_rows_run_to_the_end_of_the_extended_commitment():
    table = evaluate(**EXTENDED).clawback_schedule
    assert list(table.columns) == [
        "years_maintained",
        "credits_received",
        "recapture_none",
        "recapture",
        "recapture_all",
        "interest",
        "extension_repayment",
        "total",
        "pv_total",
    ]
    # m = 0 .. ceil(10.5 + 3) - 1 = 13
    assert table["years_maintained"].tolist() == list(range(14))


@pytest.mark.parametrize(
    "m, expected_recapture",
    [
        (0, 0.0),
        (1, BASE * 100000 * 9.5 / 10.5),
        (7, BASE * AWARD * 3.5 / 10.5),
        (10, BASE * AWARD * 0.5 / 10.5),  # 10 < C = 10.5: still within the commitment period
        (11, 0.0),  # 11 > C: maintained through the commitment period
        (13, 0.0),
    ],
)
def test_71a5d_pro_rata_recapture_at_and_around_the_commitment_period(m, expected_recapture):
    assert schedule().loc[m, "recapture"] == pytest.approx(expected_recapture)


@pytest.mark.parametrize(
    "m, k",
    [(10, 0), (11, 0), (12, 1), (13, 2)],  # 10.5 + k whole extended years maintained
)
def test_71a5d_extension_repayment_by_whole_extended_years(m, k):
    table = schedule()
    received = table.loc[m, "credits_received"]
    assert received == AWARD
    assert table.loc[m, "extension_repayment"] == pytest.approx(INCREMENTAL * (3 - k) / 3)
    assert table.loc[m, "total"] == pytest.approx(table.loc[m, "recapture"] + INCREMENTAL * (3 - k) / 3)


def test_71a5d_incremental_received_is_in_proportion_to_the_credits_received():
    # Exit after 3 years: $300,000 received; incremental received 148,750 x 3 / 7, repaid in full;
    # the rest recaptured pro rata: (300,000 - 63,750) x 7.5 / 10.5.
    row = schedule().loc[3]
    assert row["credits_received"] == 300000
    assert row["recapture"] == pytest.approx((300000 - INCREMENTAL * 3 / 7) * 7.5 / 10.5)
    assert row["extension_repayment"] == pytest.approx(INCREMENTAL * 3 / 7)


def test_71a5d_pro_rata_extended_years_option():
    table = schedule(commitment={"extended_years": 3, "extension_years_counted": "pro_rata"})
    assert table.loc[12, "extension_repayment"] == pytest.approx(INCREMENTAL * (3 - 1.5) / 3)
    assert extended_years_maintained([10, 11, 12, 14], 10.5, 3, "pro_rata").tolist() == [0, 0.5, 1.5, 3]


@pytest.mark.parametrize(
    "rule, m, expected",
    [
        ("all", 7, BASE * AWARD),
        ("all", 10, BASE * AWARD),
        ("all", 11, 0.0),
        ("none", 7, 0.0),
        ("pro_rata_award", 7, BASE * AWARD - BASE * AWARD * 7 / 10.5),
        ("pro_rata_award", 11, 0.0),
        ({0: 1.0, 5: 0.5, 9: 0.25}, 4, BASE * 400000.0),
        ({0: 1.0, 5: 0.5, 9: 0.25}, 5, BASE * 250000.0),
        ({0: 1.0, 5: 0.5, 9: 0.25}, 9, 0.25 * BASE * AWARD),
        ({0: 1.0, 5: 0.5, 9: 0.25}, 11, 0.0),
    ],
)
def test_71a5d_named_recapture_rules(rule, m, expected):
    changes = {**EXTENDED, "commitment": {"extended_years": 3, "recapture": rule}}
    table = evaluate(**changes).clawback_schedule.set_index("years_maintained")
    assert table.loc[m, "recapture"] == pytest.approx(expected)


def test_71a5d_a_recapture_table_is_validated():
    with pytest.raises(netbenefit.ScenarioError, match="commitment.recapture"):
        scenario(commitment={"recapture": {0: 1.5}})
    with pytest.raises(netbenefit.ScenarioError, match="commitment.recapture"):
        scenario(commitment={"recapture": "most"})


def test_71a5d_pv_total_is_discounted_to_the_year_after_the_last_maintained():
    table = evaluate(discount_rate=0.05, **EXTENDED).clawback_schedule
    assert np.allclose(table["pv_total"], table["total"] * 1.05 ** -(table["years_maintained"] + 1.0))


def test_71a5d_no_extension_no_repayment_and_nothing_after_the_commitment_period():
    table = evaluate().clawback_schedule
    assert (table["extension_repayment"] == 0).all()
    assert table["years_maintained"].tolist() == list(range(11))  # ceil(10.5) - 1 = 10


def test_71a5d_clawback_schedule_in_to_dict_and_summary():
    result = evaluate(**EXTENDED)
    rows = result.to_dict()["clawback_schedule"]
    assert len(rows) == 14 and set(rows[0]) == set(result.clawback_schedule.columns)
    assert "clawback if the project stops" in result.summary()


def test_71a5d_bundled_extended_commitment_recaptures_inside_and_repays_after():
    result = netbenefit.evaluate("scenarios/extended_commitment.yaml")
    table = result.clawback_schedule.set_index("years_maintained")
    assert table.loc[7, "recapture"] > 0 and table.loc[10, "recapture"] > 0
    assert table.loc[11, "recapture"] == 0 and table.loc[11, "extension_repayment"] > 0
    assert table.loc[15, "extension_repayment"] == pytest.approx(result.incremental_credit / 5)


def test_71a5d_table_share():
    assert table_share({2: 0.5}, [0, 1, 2, 3]).tolist() == [1.0, 1.0, 0.5, 0.5]


# --- invariants ----------------------------------------------------------------------------------
rules = st.one_of(
    st.sampled_from(["pro_rata", "pro_rata_award", "all", "none"]),
    st.dictionaries(st.integers(0, 20), st.floats(0, 1), min_size=1, max_size=4),
)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(
    annual=st.lists(st.floats(0, 1e7), min_size=1, max_size=10),
    first=st.integers(0, 3),
    period=st.floats(0.5, 15),
    extended=st.integers(0, 6),
    incremental_share=st.floats(0, 1),
    rule=rules,
    counting=st.sampled_from(["whole_years", "pro_rata"]),
)
def test_71a5d_invariants(annual, first, period, extended, incremental_share, rule, counting):
    credits = np.array([[0.0] * first + annual])
    factor = lambda years: 1.0 / 1.05**years  # noqa: E731
    out = clawback_schedule(credits, [first], [period], [incremental_share], extended, factor, rule, counting)
    m = out["years_maintained"]
    tolerance = 1e-6 * max(1.0, credits.sum())
    received = out["credits_received"]
    # C.34:1B-341(a)(4): the recapture is within none ... all of its slice (the credits less the
    # incremental ones); the extension repayment at most the incremental slice; no dollar twice.
    assert np.all(out["recapture"] <= out["recapture_all"] + tolerance)
    assert np.all(out["recapture_all"] <= (1 - incremental_share) * received + tolerance)
    assert np.all(out["extension_repayment"] <= incremental_share * received + tolerance)
    assert np.all(out["total"] <= received + tolerance)
    assert np.all(out["total"] >= 0)
    # Zero recapture once maintained through the commitment period; zero total once through C + X.
    assert np.all(out["recapture"][m >= first + period] == 0)
    assert np.all(out["total"][m >= first + period + extended] == 0)
    # Without an extension, only the recapture.
    if extended == 0:
        assert np.all(out["extension_repayment"] == 0)


def test_71a5d_recapture_function_at_the_boundary():
    assert float(recapture(700.0, 700.0, 10.5, 0.0, 10.5)) == 0.0  # at C
    assert float(recapture(700.0, 700.0, 10.49, 0.0, 10.5)) > 0  # just below
    assert float(recapture(700.0, 700.0, 10.51, 0.0, 10.5)) == 0.0  # just above
