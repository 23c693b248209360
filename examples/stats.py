"""Summary statistics of a list of numbers."""


def mean(values):
    """Return the arithmetic mean of values, or 0 for none."""
    if not values:
        return 0
    return sum(values) / len(values)


def describe(values, unit="ms"):
    """Describe values in one line: count, mean, and range."""
    if not values or any(v is None for v in values):
        return "no data"
    low, high = min(values), max(values)
    spread = "flat" if low == high else f"{low}-{high} {unit}"
    return f"{len(values)} values, mean {mean(values):.1f} {unit}, range {spread}"
