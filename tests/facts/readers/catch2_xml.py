"""Independent reader: Catch2 XML reporter output (-r xml), from the reporter's own format.

<TestCase> holds <BenchmarkResults name samples iterations ...> (possibly inside
<Section>s) with <mean value lowerBound upperBound>, <standardDeviation ...> (all in
nanoseconds) and <outliers lowMild lowSevere highMild highSevere>; the test case's
<OverallResult success="false"> (or a <failed> entry in the benchmark) means the
benchmark failed.
"""
import xml.etree.ElementTree as ET


def _bounds(el, stat, stats):
    for key, suffix in (("value", ""), ("lowerBound", "_ci_low"), ("upperBound", "_ci_high")):
        if el.get(key) is not None:
            stats[stat + suffix] = float(el.get(key)) / 1e9


def read(path):
    root = ET.parse(path).getroot()
    series = {}
    failures = {}
    for tc in root.iter("TestCase"):
        result = tc.find("OverallResult")
        case_ok = result is None or result.get("success") == "true"
        for br in tc.iter("BenchmarkResults"):
            name = br.get("name")
            s = series.setdefault(name, {
                "benchmark": name, "dims": {}, "metric": "time", "unit": "s",
                "direction": "lower", "samples": [], "stats": {}})
            st = s["stats"]
            if br.get("samples") is not None:
                st["n"] = float(br.get("samples"))
            if br.get("iterations") is not None:
                st["iterations"] = float(br.get("iterations"))
            for child in br:
                if child.tag == "mean":
                    _bounds(child, "mean", st)
                elif child.tag == "standardDeviation":
                    _bounds(child, "stddev", st)
                elif child.tag == "outliers":
                    keys = [k for k in ("lowMild", "lowSevere", "highMild", "highSevere")
                            if child.get(k) is not None]
                    if keys:
                        st["outliers"] = sum(float(child.get(k)) for k in keys)
            if not case_ok or br.find("failed") is not None:
                failures[name] = {"benchmark": name, "dims": {}}
    return {"series": list(series.values()), "failures": list(failures.values())}
