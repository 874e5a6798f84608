"""github-action-benchmark customSmallerIsBetter: as gab, direction lower."""
from gab import read_with


def read(path):
    return read_with(path, "lower")
