# Sourced by the shell tests that start a real rsyslogd (stream-*.sh).
#
# rsyslogd_start WORK NPORTS CONF_FN: start "$rsyslogd" in the foreground as
# a plain process, its config written by CONF_FN PORT (ports PORT to
# PORT+NPORTS-1) into WORK/rsyslog.conf. Sets $port and $pid; returns 1 with
# rsyslogd's output when no start listened on every port.
#
# The ports are below the kernel's ephemeral range: an outgoing connection of
# another test takes its local port from that range, and `ss -l` does not
# show it. The test runs for both builds at once, so a port free when looked
# at can be taken before the bind: then the start is tried on other ports.
rsyslogd_start() {
  _work=$1 _n=$2 _conf=$3
  _lo=$(awk '{ print $1 }' /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null)
  _lo=${_lo:-32768}
  for _try in 1 2 3 4 5; do
    port=$((10000 + $(od -An -N2 -tu2 /dev/urandom) % (_lo - 10000 - _n)))
    _last=$((port + _n - 1))
    # any socket on these ports, in any state
    ss -Htuan 2>/dev/null | awk -v lo="$port" -v hi="$_last" '
      { n = split($5, a, ":"); p = a[n] + 0; if (p >= lo && p <= hi) busy = 1 }
      END { exit !busy }' && continue
    "$_conf" "$port" >"$_work/rsyslog.conf"
    "$rsyslogd" -n -f "$_work/rsyslog.conf" -i "$_work/rsyslogd.pid" \
      >"$_work/rsyslogd.out" 2>&1 &
    pid=$!
    for _ in $(seq 50); do
      _all=1
      for _p in $(seq "$port" "$_last"); do
        ss -Hltn 2>/dev/null | grep -Eq ":$_p[[:space:]]" || _all=
      done
      [ -n "$_all" ] && return 0
      kill -0 "$pid" 2>/dev/null || break
      # it goes on without a port it could not bind
      grep -q 'Could not create' "$_work/rsyslogd.out" && break
      sleep 0.1
    done
    kill "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    pid=
  done
  echo "rsyslogd did not listen on ports $port to $_last:"
  cat "$_work/rsyslogd.out"
  return 1
}
