"""Files in and out, the floor just above the words (``labels``): one file written safely
(``writing``), one run's folder and its manifest (``run_folder``), the one YAML loader
(``strict_yaml``), the files a scenario names (``named_files``), the one rule for text keys
(``text_rule``), text written safely to each place it lands (``safe_text``) and the arguments of
the Python API checked in one place (``arguments``).

May import: the standard library, the libraries it reads and writes with, and
``netbenefit.errors``; nothing else of netbenefit but the words below it, ``netbenefit.labels``
(every floor above stands on this one)."""
