"""71(a)(3), (4), (6), (7), (8): location, attestations and prevailing wage; the checks list."""

import pytest
from support import base_scenario_dict, evaluate

from netbenefit import Scenario
from netbenefit import evaluate as evaluate_scenario
from netbenefit.law.rules import CHECK_IDS


def test_every_check_is_listed_once_in_statute_order():
    result = evaluate()
    assert list(result.checks["id"]) == [
        "71(a)(1)",
        "71(a)(2)",
        "71(a)(3)",
        "71(a)(4)",
        "71(a)(5)",
        "71(a)(6)",
        "71(a)(7)",
        "71(a)(8)",
        "71(d)",
        "71(f)",
        "75",
    ]
    assert tuple(result.checks["id"]) == CHECK_IDS
    assert result.eligible


def test_qualified_incentive_area_71a3_is_read_from_its_own_flag():
    # A tract, enhanced area or restricted municipality does not imply a qualified incentive area.
    result = evaluate(
        location__qualified_incentive_area=False,
        location__qualified_incentive_tract=True,
        location__enhanced_area=True,
        location__government_restricted_municipality=True,
    )
    assert not result.check("71(a)(3)")
    assert not result.eligible


@pytest.mark.parametrize(
    "key, check_id",
    [("material_factor", "71(a)(4)"), ("environmental_standards", "71(a)(6)"), ("affirmative_action", "71(a)(7)")],
)
@pytest.mark.parametrize(
    "value, passed, words", [(True, True, "Attested"), (False, False, "is false"), (None, False, "Not given")]
)
def test_attestations(key, check_id, value, passed, words):
    data = base_scenario_dict()
    if value is None:
        del data["attestations"][key]  # a missing attestation counts as false
    else:
        data["attestations"][key] = value
    result = evaluate_scenario(Scenario.from_dict(data))
    assert result.check(check_id) is passed
    assert words in result.checks.set_index("id").loc[check_id, "message"]
    assert result.eligible is passed


PAID = {"construction": True, "building_services": True}
EXEMPT = {"landlord_not_assisted": True, "landlord_party_to_contract": True}


@pytest.mark.parametrize(
    "prevailing_wage, passed",
    [
        (PAID, True),
        ({"construction": False, "building_services": True}, False),
        ({"construction": True, "building_services": False}, False),
        ({"construction": True}, False),  # building services not given
        # 71(a)(8)(b): construction commencing more than two years after the first certificate.
        (
            {"construction": False, "building_services": True, "construction_starts_years_after_first_certificate": 2},
            False,
        ),
        (
            {
                "construction": False,
                "building_services": True,
                "construction_starts_years_after_first_certificate": 2.01,
            },
            True,
        ),
        # (b) exempts construction work only, never building services.
        (
            {"construction": False, "building_services": False, "construction_starts_years_after_first_certificate": 5},
            False,
        ),
        # 71(a)(8)(a)(i)-(iii): all three, the lease less than 35% of the entire facility.
        (
            {
                "construction": False,
                "building_services": False,
                "exemption": EXEMPT | {"lease_share_of_facility": 0.3499},
            },
            True,
        ),
        (
            {
                "construction": False,
                "building_services": False,
                "exemption": EXEMPT | {"lease_share_of_facility": 0.35},
            },
            False,
        ),
        (
            {
                "construction": False,
                "building_services": False,
                "exemption": EXEMPT | {"lease_share_of_facility": 0.3501},
            },
            False,
        ),
        (
            {
                "exemption": {
                    "landlord_not_assisted": False,
                    "landlord_party_to_contract": True,
                    "lease_share_of_facility": 0.1,
                }
            },
            False,
        ),
        (
            {
                "exemption": {
                    "landlord_not_assisted": True,
                    "landlord_party_to_contract": False,
                    "lease_share_of_facility": 0.1,
                }
            },
            False,
        ),
        ({"exemption": EXEMPT}, False),  # the lease share not given: no exemption presumed
    ],
)
def test_prevailing_wage_71a8(prevailing_wage, passed):
    result = evaluate(attestations__prevailing_wage=prevailing_wage)
    assert result.check("71(a)(8)") is passed


def test_prevailing_wage_not_given():
    data = base_scenario_dict()
    del data["attestations"]["prevailing_wage"]
    result = evaluate_scenario(Scenario.from_dict(data))
    assert not result.check("71(a)(8)")
    assert "Not given" in result.checks.set_index("id").loc["71(a)(8)", "message"]
