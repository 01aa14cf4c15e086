"""The compiled part of puzzlesat: one optional C extension (the rest is in pyproject.toml).

``puzzlesat.numberlink._small`` is a backtracking search for small one-layer Numberlink boards
(encodings/numberlink.md, "A compiled search for small boards (_small.c)"). It is optional: an
install without a C compiler still works, and the engine then runs its SAT road alone.
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("puzzlesat.numberlink._small", ["src/puzzlesat/numberlink/_small.c"],
                             extra_compile_args=["-O2"], optional=True)])
