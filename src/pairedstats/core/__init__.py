"""The numpy core of pairedstats.

Validated ndarrays in, plain arrays out. Nothing in this package imports pandas or xarray
(``tests/test_core_isolation.py`` checks it in a fresh interpreter).
"""
