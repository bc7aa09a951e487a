#!/usr/bin/env bash
# The HTML report opened in a real browser: a results folder (the e2e
# bisect's own when it exists, else a synthetic one written in the store's
# layout), `iobisect report --html --json`, then headless Chromium takes a
# screenshot and dumps the DOM, which must hold one plot per topology x
# point x metric x clock (a bisection's answer adds pairs timed on the
# wall clock beside its virtual-clock boots) and the culprit marker.
# IOBISECT overrides the binary.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${IOBISECT:-./iobisect}
out=${IOBISECT_REPORT_OUT:-$(mktemp -d /tmp/iobisect-report.XXXXXX)}
mkdir -p "$out"

if ! command -v chromium >/dev/null; then
	echo "50-report-html: installing chromium" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 --no-install-recommends chromium >/dev/null
fi

# A bisect run that finished leaves results/<job>/bisect-state.json.
results= synthetic=0
for s in results/*/bisect-state.json; do
	[ -f "$s" ] && grep -q '"status": *"done"' "$s" && results=$(dirname "$s") && break
done
if [ -z "$results" ]; then
	results=$out/results/synth synthetic=1
	rm -rf "$out/results"
	culprit=$(python3 tests/fixture/synth-results.py "$out/results" synth)
else
	culprit=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["culprit"])' "$results/bisect-state.json")
fi
echo "50-report-html: results $results, culprit $culprit"

"$bin" report "$results" --html "$out/report.html" --json "$out/report.json"

# The expected plots: one per distinct topology/point/metric/clock in the
# store, as the report draws them (a clock without a name is the wall's).
expected=$(python3 - "$results" <<'PY'
import json, os, sys
keys = set()
for d, _, files in os.walk(sys.argv[1]):
    for f in files:
        if "-sample-" in f and f.endswith(".json"):
            doc = json.load(open(os.path.join(d, f)))
            if not doc.get("complete"):
                continue
            m = doc.get("machine") or {}
            clock = m.get("clock", "wall")
            shift = m.get("icount_shift", 0) if clock == "virtual" else 0
            for k, v in doc.items():
                if isinstance(v, dict) and "bw_bytes" in v and v.get("verified"):
                    keys.add((doc["topology"], doc["point"], k, clock, shift))
print(len(keys))
PY
)

# Whether the store's samples carry block-layer counters (older ones do not).
counters=$(grep -rl --include='*-sample-*.json' '"block_v1"' "$results" 2>/dev/null | head -1 | grep -c . || true)

flags=(--headless --no-sandbox --disable-gpu --disable-background-networking
	--disable-component-update --disable-sync --no-first-run
	--hide-scrollbars --window-size=1200,3000)
rm -rf "$out/profile"
timeout 120 chromium "${flags[@]}" --user-data-dir="$out/profile" \
	--screenshot="$out/report.png" "file://$(realpath "$out/report.html")" 2>"$out/chromium.log"
rm -rf "$out/profile"
timeout 120 chromium "${flags[@]}" --user-data-dir="$out/profile" \
	--dump-dom "file://$(realpath "$out/report.html")" >"$out/dom.html" 2>>"$out/chromium.log"
rm -rf "$out/profile"

[ -s "$out/report.png" ] || { echo "no screenshot" >&2; exit 1; }
python3 - "$out/dom.html" "$expected" "$culprit" "$counters" "$synthetic" <<'PY'
import re, sys
dom, expected, culprit = open(sys.argv[1]).read(), int(sys.argv[2]), sys.argv[3]
has_counters = sys.argv[4] == "1"
synthetic = sys.argv[5] == "1"
plots = re.findall(r'<svg class="plot"[^>]*data-topology="([^"]*)"[^>]*data-point="([^"]*)"[^>]*data-metric="([^"]*)"[^>]*data-clock="([^"]*)"', dom)
assert len(plots) == expected, f"{len(plots)} plots, expected {expected}"
assert len(set(plots)) == len(plots), "a series is plotted twice"
marks = re.findall(r'class="culprit[^"]*" data-commit="([0-9a-f]+)"', dom)
assert marks and all(m == culprit for m in marks), f"culprit marks {marks}"
# A step the detector finds is the culprit's. The synthetic store has the
# boots to find it; a bisection's own may not (the demo's 8 boots in all,
# 4 on each side, cannot make a step significant at alpha 0.01: a 4-4
# split of 8 values is one of 70 orders).
steps = re.findall(r'<g class="changepoint" data-commit="([0-9a-f]+)"', dom)
assert all(c == culprit for c in steps), f"change points at {steps}, not the culprit"
assert steps or not synthetic, "no change point at the culprit"
assert "<script" not in dom.lower(), "the page holds a script"
# The block layer's counters, culprit against its parent, where the store
# has them: the largest change first, the settings last.
counters = re.findall(r'<table class="counters"[^>]*data-head="%s"[^>]*data-pair="culprit"[^>]*>(.*?)</table>' % culprit[:12], dom, re.S)
if has_counters:
    assert counters, "no table of block-layer counters for the culprit"
    rows = re.findall(r'<tr data-dev="([^"]*)" data-counter="([^"]*)" data-setting="(\d)"', counters[0])
    assert rows and rows[0][2] == "0", f"counter rows {rows}"
    print(f"50-report-html: culprit's counters, first {rows[0][0]}: {rows[0][1]}")
print(f"50-report-html: {len(plots)} plots, {len(marks)} culprit marks")
PY
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["culprit"]==sys.argv[2]; assert len(j["series"])==int(sys.argv[3])' \
	"$out/report.json" "$culprit" "$expected"
echo "50-report-html: screenshot $out/report.png"
