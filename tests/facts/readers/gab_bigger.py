"""github-action-benchmark customBiggerIsBetter: as gab, direction higher."""
from gab import read_with


def read(path):
    return read_with(path, "higher")
