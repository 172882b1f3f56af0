"""What a reader sees: charts, HTML pages and the memo, the workbook, notebook display and tables,
the explorer, and the files of a comparison or a portfolio (``result_files``, ``portfolio_files``,
with the chart cache).

The views floor, this folder. A view may import the analysis, the model, the law, ``io`` and
``errors``; never the command line. A model or analysis object reaches its view from its own
method, as pandas' ``DataFrame.to_excel`` reaches its formatter: :meth:`Result.to_excel
<netbenefit.model.result.Result.to_excel>` imports :func:`netbenefit.views.workbook.write_workbook`
in the method, on first call, and a writer checks its path first
(:func:`netbenefit.io.writing.written_file`). ``tests/unit/test_floors.py`` lists those methods,
the only imports up the floors (``docs/layout.md``).
"""
