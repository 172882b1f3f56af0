"""One scenario and what is computed from it: the scenario file (``scenario/``), the cash flows
and every rule applied (``cashflows/``), the thin pipeline (``evaluate``), the result and its
sentences (``result``, ``explain``), several results side by side (``compare``), the project
after approval (``after_approval/``: follow, the actual-results file, certification, the
clawback, the floor, the tables), and what a ratio rests on.

May import: ``netbenefit.law``, ``netbenefit.io``, ``netbenefit.labels`` and ``netbenefit.errors``; never
the analysis, the views or the command line, but a model object's view methods (``to_excel``,
``to_html``, ``to_pdf``, ``plot``, ``_repr_html_``) each import their view in the method
(``tests/unit/test_floors.py`` lists them)."""
