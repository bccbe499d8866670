"""Settings of the whole test session.

The suite imports about 170 modules of its own and the package's, rewrites the asserts of
every test module, and starts fresh interpreters that import the package (the command line,
process pools, the notebooks, the docs build). Where the environment says not to write
bytecode caches (``PYTHONDONTWRITEBYTECODE``, common in containers), each of them compiles
every module from source again, every run: 8 of the 15 s that collecting the quick loop
took. The session writes the caches (``__pycache__``, ignored by git) whatever the
environment says, so that a second run and every child process read them instead.
"""

import sys

sys.dont_write_bytecode = False
