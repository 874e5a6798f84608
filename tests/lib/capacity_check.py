"""What a capacity search (`rate: {search: ...}`) stored and said, checked
for what does not move with the machine's load: which rates it tried
(replayed from its own verdicts: the low first, then the geometric middle
of the highest passing and the lowest failing rate, the high last when
none failed, until they are within the tolerance), that every passing rate
is below every failing one, that each step is a point rate=R of its own
with a progress line, and that max_sustained_rate and the capacity.BENCH
attribute say the highest passing and the lowest failing rate. How close
the capacity found is to the pipeline's is a timing, checked by make bench
(tests/bench/bench-capacity.sh). Used by tests/sh/*-capacity.sh."""
import math
import re


def dims(r):
    return r.get("dims") or {}


def value(s):
    return s if isinstance(s, (int, float)) else s["value"]


def search_rates(verdict, low, high, tolerance):
    """The rates the search tries, in order, given each one's verdict
    (True: passed); a rate without one ends the list."""
    rates = [low]
    if not verdict.get(low):
        return rates
    lo, hi, hi_failed = low, high, False
    while (hi - lo) / lo * 100 > tolerance:
        m = math.floor(math.sqrt(lo * hi) + 0.5)  # C's round()
        if not lo < m < hi:
            break
        rates.append(m)
        if m not in verdict:
            return rates
        if verdict[m]:
            lo = m
        else:
            hi, hi_failed = m, True
    if not hi_failed:
        rates.append(high)
    return rates


def check_search(run, err, bench, unit, low, high, tolerance, check):
    """check(cond, what) is called for each assertion. Returns the steps,
    [(rate, passed)] in the order tried, and the sustained rate (0: none)."""
    steps = [(int(m.group(1)), m.group(2) == "pass")
             for m in re.finditer(rf"{re.escape(bench)}: rate (\d+) {re.escape(unit)}: .* - (pass|FAIL)", err)]
    check(steps, "progress lines, one a step")
    tried = [r for r, _ in steps]
    want = search_rates(dict(steps), low, high, tolerance)
    check(tried == want, f"the rates tried {tried} are the search's {want}")
    passed = [r for r, ok in steps if ok]
    failed = [r for r, ok in steps if not ok]
    check(not passed or not failed or max(passed) < min(failed),
          f"every passing rate {passed} below every failing one {failed}")
    stored = sorted({int(dims(r)["rate"]) for r in run["results"] if "rate" in dims(r)})
    check(stored == sorted(set(tried)), f"a point rate=R for each step: {stored}")
    msr = [r for r in run["results"] if r["benchmark"] == bench and r["metric"] == "max_sustained_rate"]
    attr = run["attrs"].get(f"capacity.{bench}", "")
    sustained = max(passed) if passed else 0
    if passed:
        check(len(msr) == 1 and not dims(msr[0]) and value(msr[0]["samples"][0]) == sustained,
              f"one max_sustained_rate, {sustained}")
        if failed:
            check(attr.startswith(f"{sustained} {unit} sustained; {min(failed)} {unit} failed"),
                  f"capacity.{bench} names {sustained} and {min(failed)}: {attr}")
        else:
            check(attr.startswith(f"at least {sustained} {unit}"), f"capacity.{bench} says at least: {attr}")
    else:
        check(not msr, "no max_sustained_rate when the lowest rate failed")
        check(attr.startswith("no rate sustained"), f"capacity.{bench} says none: {attr}")
    return steps, sustained
