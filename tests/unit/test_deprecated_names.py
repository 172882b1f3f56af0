"""Public names kept working with a DeprecationWarning (CHANGELOG.md, "Deprecated")."""

from __future__ import annotations

from pathlib import Path

import pytest

import netbenefit

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def test_result_net_benefit_ratio_warns_and_is_the_ratio():
    result = netbenefit.evaluate(SCENARIOS / "office_hq_default_area.yaml")
    with pytest.warns(DeprecationWarning, match="use Result.ratio"):
        assert result.net_benefit_ratio == result.ratio


def test_analysis_tornado_warns_and_is_the_chart():
    from netbenefit import analysis
    from netbenefit.views import charts

    with pytest.warns(DeprecationWarning, match="netbenefit.views.charts.tornado"):
        assert analysis.tornado is charts.tornado


def test_the_package_tornado_is_the_chart_without_a_warning(recwarn):
    from netbenefit.views import charts

    assert netbenefit.tornado is charts.tornado
    assert not [w for w in recwarn if issubclass(w.category, DeprecationWarning)]


def test_an_unknown_analysis_name_is_still_an_attribute_error():
    from netbenefit import analysis

    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        analysis.nonsense  # noqa: B018


def test_the_version_is_the_installed_one_or_says_it_is_not_installed(monkeypatch):
    from importlib.metadata import version

    from netbenefit import version as module

    assert module.installed_version() == version("netbenefit") == netbenefit.__version__
    monkeypatch.setattr(module, "_installed", lambda: None)  # a source tree that is not installed
    assert module.installed_version() == module.NOT_INSTALLED == "0+unknown"
    assert module.installed_version("unknown") == "unknown"  # the command line's and the report's text
