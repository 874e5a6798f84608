"""iperf3 -J (TCP and UDP).  dims from start.test_start: protocol, num_streams,
blksize, reverse.  intervals[].sum: throughput (bits_per_second / 8, B/s),
bytes, retransmits (TCP), packets (UDP), each a sample at t = start.
end.sum_sent / sum_received / sum (UDP totals) -> sent_ / received_ / total_:
throughput, bytes, duration (seconds), retransmits, jitter (jitter_ms -> s),
lost_packets, packets, lost_percent; end.cpu_utilization_percent -> cpu_*.
TCP round-trip time (a latency the tool measured): with one stream, rtt (µs ->
s) per interval from intervals[].streams[0].rtt, stats mean/min/max from
end.streams[0].sender mean_rtt/min_rtt/max_rtt."""
import json
from _facts import series, result

FIELDS = (("bits_per_second", "throughput", "B/s", "higher", 1 / 8.0),
          ("bytes", "bytes", "B", "none", 1.0),
          ("seconds", "duration", "s", "none", 1.0),
          ("retransmits", "retransmits", "count", "lower", 1.0),
          ("jitter_ms", "jitter", "s", "lower", 1e-3),
          ("lost_packets", "lost_packets", "count", "lower", 1.0),
          ("packets", "packets", "count", "none", 1.0),
          ("lost_percent", "lost_percent", "%", "lower", 1.0))


def read(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    ts = doc["start"]["test_start"]
    dims = {k: str(ts[k]) for k in ("protocol", "num_streams", "blksize", "reverse") if k in ts}
    out = []
    per = {}
    order = []
    for iv in doc.get("intervals") or []:
        s = iv["sum"]
        for key, metric, unit, direction, k in (f for f in FIELDS if f[0] != "seconds"):
            if key in s:
                if metric not in per:
                    per[metric] = series("iperf3", metric, unit, direction, [], {}, dims)
                    order.append(metric)
                per[metric]["samples"].append({"value": float(s[key]) * k, "t": float(s["start"])})
    out.extend(per[m] for m in order)
    end = doc.get("end") or {}
    for key, prefix in (("sum_sent", "sent_"), ("sum_received", "received_"), ("sum", "total_")):
        s = end.get(key)
        if not s:
            continue
        for f, metric, unit, direction, k in FIELDS:
            if f in s:
                out.append(series("iperf3", prefix + metric, unit, direction, [float(s[f]) * k], {}, dims))
    ivs = doc.get("intervals") or []
    if ts.get("protocol") == "TCP" and ts.get("num_streams") == 1:
        rtt = [{"value": iv["streams"][0]["rtt"] * 1e-6, "t": float(iv["sum"]["start"])}
               for iv in ivs if iv.get("streams") and "rtt" in iv["streams"][0]]
        snd = ((end.get("streams") or [{}])[0]).get("sender") or {}
        st = {k: snd[f] * 1e-6 for k, f in (("mean", "mean_rtt"), ("min", "min_rtt"), ("max", "max_rtt")) if f in snd}
        if rtt or st:
            out.append(series("iperf3", "rtt", "s", "lower", rtt, st, dims))
    for k, v in (end.get("cpu_utilization_percent") or {}).items():
        out.append(series("iperf3", "cpu_" + k, "%", "none", [float(v)], {}, dims))
    return result(out)
