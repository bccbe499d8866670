"""Alias of :mod:`pairedstats.core.draws`, the one module of random draws (kept for the
modules above the core until they import ``draws``)."""

from .draws import (
    BLOCK,
    block_generator,
    block_slices,
    canonical_bytes,
    entropy_prefix,
    label_words,
    root_entropy,
)

__all__ = [
    "BLOCK",
    "block_generator",
    "block_slices",
    "canonical_bytes",
    "entropy_prefix",
    "label_words",
    "root_entropy",
]
