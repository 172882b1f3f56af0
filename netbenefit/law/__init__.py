"""The law, as data and pure functions: the cited parameters (``parameters/``), section 71 on
numbers and arrays (``rules/``), discounting (``finance``), New Jersey's taxes (``taxes``), the
section 75 award calculator (``award``). The words and units of every key stand on the floor below,
``netbenefit.labels``.

May import: ``netbenefit.io``, ``netbenefit.labels`` and ``netbenefit.errors``; never the model, the analysis, the views
or the command line (they stand on this floor)."""
