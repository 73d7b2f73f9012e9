#!/usr/bin/env bash
# The web page's figures (issue 26, docs/web.md), a benchmark and not a test:
#  1. speed: emulated instructions per second in headless Chromium at speed=max against the
#     native binary on the same workload (Kalah thinking at depth 15: test word 17, pit 3),
#     side by side, RUNS times (default 3: the build machine is shared, figures move). Both
#     are timed over the same stretch of the program: the page's instruction count is read
#     twice (2.5 s and 6.5 s after the link opens, while the machine still thinks), and the
#     native binary is timed to each of those two counts; the figure is the difference. Per
#     second of wall time, and per second of CPU time (every Chromium process; the native
#     process's user + system time), which a busy machine disturbs less;
#  2. the page's CPU use at 1x with the Kalah board on the scope (Chromium's processes' CPU
#     time over 20 s of wall time, after the 28 s load);
#  3. the size of what the page downloads.
# Needs chromium and chromium-driver, a pdp1 built with the page (build.sh, then
# cargo build --release), curl and bc.
set -euo pipefail
cd "$(dirname "$0")/../.."
pdp1=target/release/pdp1
dir="$(mktemp -d)"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  # (A browser whose session was not ended: only ours, by its profile folder.)
  for p in $(pgrep chromium); do grep -qs "$dir" "/proc/$p/cmdline" && kill "$p" 2>/dev/null; done
  rm -rf "$dir"
}
trap cleanup EXIT

$pdp1 --serve --port 0 >"$dir/serve" 2>&1 &
pids+=($!)
sleep 1
port=$(grep -o '127.0.0.1:[0-9]*' "$dir/serve" | cut -d: -f2)
chromedriver --port=0 >"$dir/driver" 2>&1 &
pids+=($!)
sleep 2
dport=$(grep -o 'successfully on port [0-9]*' "$dir/driver" | awk '{print $4}')
wd="http://127.0.0.1:$dport"
session() {
  curl -s -X POST "$wd/session" -d '{"capabilities":{"alwaysMatch":{"goog:chromeOptions":{"args":["--headless","--no-sandbox","--disable-gpu","--mute-audio","--window-size=1280,1000","--user-data-dir='"$dir/profile$1"'"]}}}}' |
    sed -n 's/.*"sessionId":"\([^"]*\)".*/\1/p'
}
js() { curl -s -X POST "$wd/session/$1/execute/sync" -d "{\"script\":\"$2\",\"args\":[]}" | sed -n 's/.*"value":\([^}]*\)}.*/\1/p'; }

cpu() { # clock ticks of every chromium process of ours (by its profile folder)
  local t=0
  for p in $(pgrep chromium); do
    grep -qs "$dir" "/proc/$p/cmdline" &&
      t=$((t + $(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null || echo 0)))
  done
  echo "$t"
}
hz=$(getconf CLK_TCK)
# Native: CPU seconds (user + system) and wall seconds to run the first $1 instructions.
native() {
  /usr/bin/time -f "%U %S %e" -o "$dir/time" \
    $pdp1 --headless roms/kalah.rim --tw 17 --type '3 ' --max-instructions "$1" >/dev/null 2>&1 || true
  awk '{print $1 + $2, $3}' "$dir/time"
}
paper() { js "$1" 'return document.getElementById(\"paper\").textContent.length'; }
for run in $(seq "${RUNS:-3}"); do
  s=$(session "1-$run")
  curl -s -X POST "$wd/session/$s/url" -d "{\"url\":\"http://127.0.0.1:$port/?tape=kalah.rim&tw=17&type=3%20&speed=max\"}" >/dev/null
  sleep 2.5
  n0=$(js "$s" 'return window.pdp1Instructions()'); p0=$(paper "$s")
  c0=$(cpu); w0=$(date +%s.%N)
  sleep 4
  n1=$(js "$s" 'return window.pdp1Instructions()'); p1=$(paper "$s")
  c1=$(cpu); w1=$(date +%s.%N)
  curl -s -X DELETE "$wd/session/$s" >/dev/null
  [ "$p0" = "$p1" ] || echo "run $run: the machine answered inside the window: not a figure of the think"
  read -r nc0 nw0 <<<"$(native "$n0")"
  read -r nc1 nw1 <<<"$(native "$n1")"
  m() { echo "scale=1; ($n1 - $n0) / ($1) / 1000000" | bc; }
  bw=$(m "$w1 - $w0"); bc_=$(m "($c1 - $c0) / $hz")
  nw=$(m "$nw1 - $nw0"); nc=$(m "$nc1 - $nc0")
  echo "run $run: instructions $n0..$n1, millions a second: wall: browser $bw, native $nw, ratio $(echo "scale=2; $bw / $nw" | bc); CPU: browser $bc_, native $nc, ratio $(echo "scale=2; $bc_ / $nc" | bc) (load $(cut -d' ' -f1 /proc/loadavg))"
done

# CPU at 1x with the board on the scope: Chromium's processes' CPU time over 20 s.
s=$(session 2)
curl -s -X POST "$wd/session/$s/url" -d "{\"url\":\"http://127.0.0.1:$port/?tape=kalah.rim\"}" >/dev/null
sleep 40
c0=$(cpu); w0=$(date +%s.%N)
sleep 20
c1=$(cpu); w1=$(date +%s.%N)
echo "1x, Kalah board on the scope: $(echo "scale=1; 100 * ($c1 - $c0) / $hz / ($w1 - $w0)" | bc) % of a core"
js "$s" 'return document.getElementById(\"paper\").textContent.length' >/dev/null
curl -s -X DELETE "$wd/session/$s" >/dev/null

$pdp1 --write-page "$dir/page" >/dev/null
echo "download: $(du -cb "$dir"/page/* | tail -1 | cut -f1) bytes (tapes built in)"
ls -l "$dir/page"
