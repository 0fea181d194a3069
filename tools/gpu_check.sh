#!/usr/bin/env bash
# The GPU check, one command on a machine with an NVIDIA GPU and CuPy (run from anywhere: it works in the repo root).
#   pytest -m cuda | nbdev-test --flags cuda (the notebooks with #| cuda cells) | api_coverage --device cuda | bench_cuda
#   | bench_cuda_alloc
# then one summary block. Budget: under 5 minutes on a fresh machine, CuPy's kernel compilation included (api_coverage
# runs in parallel processes, each compiling its own kernels). Wheels in .whl/ (tools/gpu_wheels.sh) are installed
# first when the image lacks fastcore/nbdev. Logs and the api_coverage JSON go to $OUT (default /tmp/gpu_check).
set -u
cd "$(dirname "$0")/.."
root=$PWD
out=${OUT:-/tmp/gpu_check}; mkdir -p "$out"
export PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1
if compgen -G ".whl/*.whl" > /dev/null; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
        > "$out/wheels.log" 2>&1 || echo "wheel install failed: see $out/wheels.log"
    export PYTHONPATH="$root:/tmp/site" PATH="/tmp/site/bin:$PATH"
else export PYTHONPATH="$root${PYTHONPATH:+:$PYTHONPATH}"; fi
jobs=${JOBS:-$(( $(nproc) > 12 ? 12 : $(nproc) ))}
t_all=$(date +%s)
declare -A rc secs
step() {   # step NAME LIMIT_S CMD...: run with a time limit, log to $out/NAME.log
    local name=$1 limit=$2; shift 2
    local t0=$(date +%s)
    echo "== $name: $*"
    timeout "$limit" "$@" > "$out/$name.log" 2>&1; rc[$name]=$?
    secs[$name]=$(( $(date +%s) - t0 ))
    tail -n 3 "$out/$name.log"
}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader > "$out/gpu.txt" 2>&1
cudafiles=$(grep -l "mark.cuda" tests/test_*.py | tr '\n' ' ')      # test_module_wrappers: device 1 on a one-GPU machine
step pytest 60 bash -c "python3 -m pytest -q -p no:cacheprovider -n $jobs -m cuda $cudafiles tests/test_caching_allocator.py::test_module_wrappers; \
  r=\$?; python3 -m pytest -q -p no:cacheprovider tests/test_caching_allocator.py::test_module_wrappers || exit 1; exit \$r"
nbs=$(grep -l '#| cuda' nbs/*.ipynb | tr '\n' ' ')
step nbdev 45 bash -c "for nb in $nbs; do nbdev-test --flags cuda --n-workers 0 \$nb || exit 1; done"
step api_coverage 140 python3 tools/api_coverage.py --device cuda --jobs "$jobs" --json "$out/api_coverage_cuda.json"
step bench 55 python3 bench/bench_cuda.py
step alloc 40 python3 bench/bench_cuda_alloc.py
total=$(( $(date +%s) - t_all ))

ok() { [ "${rc[$1]}" = 0 ] && echo ok || { [ "${rc[$1]}" = 124 ] && echo "TIMED OUT" || echo "FAILED (rc ${rc[$1]})"; }; }
echo
echo "================ tinytensor GPU check ================"
echo "gpu:          $(cat "$out/gpu.txt" | head -1)"
echo "pytest -m cuda: $(ok pytest) in ${secs[pytest]}s: $(grep -E '(passed|failed|error)' "$out/pytest.log" | tail -1)"
echo "nbdev-test --flags cuda ($nbs): $(ok nbdev) in ${secs[nbdev]}s"
echo "api_coverage --device cuda: $(ok api_coverage) in ${secs[api_coverage]}s: $(grep -E '^TOTAL +all' "$out/api_coverage.log" | awk '{print $5 "/" $4 " present names match (" $NF ")"}')"
echo "bench_cuda: $(ok bench) in ${secs[bench]}s"
sed -n '/^case/,$p' "$out/bench.log"
echo "bench_cuda_alloc (where an empty + free spends its time): $(ok alloc) in ${secs[alloc]}s"
sed -n '/^made and dropped/,$p' "$out/alloc.log"
echo "total ${total}s; logs in $out"
echo "======================================================="
