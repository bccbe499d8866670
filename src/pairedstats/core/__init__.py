"""The numpy core of pairedstats.

Validated ndarrays in, plain arrays out. Nothing in this package imports pandas or xarray
(``tests/core/test_layering.py`` checks it in a fresh interpreter).
"""
