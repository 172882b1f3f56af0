"""Sub-commands of the ``netbenefit`` command line, one module each.

Each module has ``register(subparsers)``, which adds its parser and sets ``handler`` to a function
``(args) -> exit status``. Modules import heavy libraries (pandas, matplotlib) inside the handler,
so that ``netbenefit --help`` starts fast.
"""
