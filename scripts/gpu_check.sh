#!/usr/bin/env bash
# The runner's GPU checks in one go, for a machine with an NVIDIA GPU and no internet
# (issue 7, acceptance 4): the CuPy backend against the NumPy backend
# (`pytest -m gpu tests/runner`: the runner's test programs and every upstream integration
# program of ../shared/corpus and ../shared/corpus-extended that runs on NumPy) and the CuPy
# benchmark (`benchmarks/run_cupy.py`). The integration programs are read from ../shared beside
# the checkout: copy that folder along when the checkout alone travels.
#
#   bash scripts/gpu_check.sh          # from anywhere; it works in the repository root
#
# With the device tool: run(command="bash scripts/gpu_check.sh", carry=[".whl"], timeout_s=600).
# It takes about 3 to 5 minutes on an H200 (each step has its own time limit below). Logs go to
# $OUT when it is set (else /tmp/gpu_check): summary.txt, env.log, install.log, nvidia-smi.log,
# pytest_gpu.log, run_cupy.log. Exit status: 0 when everything passed on a GPU; 1 when a step
# failed; 2 when the Python packages are missing; 3 when no GPU is usable (then the tests skip
# and the benchmark says so in one line, and both still run).
#
# Packages. The runner needs numpy and lark; the GPU path cupy and NVRTC (CuPy compiles the
# generated CUDA C with it); the tests pytest (and its needs pluggy, iniconfig, packaging,
# pygments). Wheels found in .whl/ are installed with
#   python3 -m pip install -q --no-index --no-deps --target /tmp/site .whl/*.whl
# and PYTHONPATH=/tmp/site:$PWD (the project runs from this checkout, not installed). Without
# .whl/ the machine's own packages are used.
#
# * nvidia-h200 (this workplace's 'cuda' image: Python 3.12, cupy-cuda13x 14.2 with NVRTC,
#   numpy 2.x, pytest and its needs, pytest-xdist, driver 580 = CUDA 13.0): carry lark alone.
# * a bare machine: carry all of them, ONE cupy only, its NVRTC matching the driver (a newer
#   NVRTC than the driver makes PTX the driver cannot load):
#     cupy-cuda13x==14.2.0 (needs numpy<2.6,>=2.0 and cuda-pathfinder), nvidia-cuda-nvrtc==13.0.*
#     or cupy-cuda12x==13.6.0 (needs numpy and fastrlock>=0.5), nvidia-cuda-nvrtc-cu12==12.9.*
#   (cupy-cuda12x 14.x needs cuda-pathfinder instead of fastrlock; check a wheel's needs with
#   `unzip -p .whl/NAME-*.whl '*/METADATA' | grep ^Requires-Dist`). Don't carry a second numpy
#   or cupy onto a machine that has one: /tmp/site would shadow it, half of a pair at a time.
#
# Fetching them, once, in the repository root of a machine with PyPI (.whl/ stays out of git;
# the wheels travel with `carry`, 64 MiB a call: cupy and NVRTC are big, lark is 110 KB):
#   echo /.whl/ >> .git/info/exclude
#   python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12 \
#     --implementation cp --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 \
#     --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
#     --platform manylinux1_x86_64 -d .whl 'lark==1.3.1'
#   # a bare machine, to the same command add:
#   #   'numpy==2.5.5' 'cupy-cuda13x==14.2.0' 'cuda-pathfinder==1.9.1' 'nvidia-cuda-nvrtc==13.0.*'
#   #   'pytest==9.2.0' 'pluggy==1.7.0' 'iniconfig==2.3.1' 'packaging==26.4' 'pygments==2.21.0'
#   # (or 'cupy-cuda12x==13.6.0' 'fastrlock==0.8.4' 'nvidia-cuda-nvrtc-cu12==12.9.86' for
#   # CUDA 12). If pip finds no match, add --platform manylinux_2_N_x86_64 (N = 24, 31, 34...).
#
# Settings (environment): PYTHON (python3), GPU_CHECK_WHEELS (.whl), GPU_CHECK_SITE (/tmp/site),
# GPU_CHECK_PYTEST_TIMEOUT (330 s), GPU_CHECK_BENCH_TIMEOUT (200 s), GPU_CHECK_BENCH_ARGS (none).

set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2

PY="${PYTHON:-python3}"
WHEELS="${GPU_CHECK_WHEELS:-.whl}"
SITE="${GPU_CHECK_SITE:-/tmp/site}"
LOG="${OUT:-/tmp/gpu_check}"
mkdir -p "$LOG" || exit 2
: >"$LOG/summary.txt"
export PYTHONUNBUFFERED=1
status=0

say() { echo "gpu_check: $*" | tee -a "$LOG/summary.txt"; }

# --- packages ---------------------------------------------------------------------------------
shopt -s nullglob
wheels=("$WHEELS"/*.whl)
shopt -u nullglob
if ((${#wheels[@]})); then
  if ! "$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
      --target "$SITE" "${wheels[@]}" >"$LOG/install.log" 2>&1; then
    cat "$LOG/install.log"
    say "FAILED: installing ${#wheels[@]} wheels from $WHEELS/ (install.log)"
    exit 2
  fi
  say "installed ${#wheels[@]} wheels from $WHEELS/ into $SITE: $(cd "$WHEELS" && echo *.whl)"
  export PYTHONPATH="$SITE:$PWD${PYTHONPATH:+:$PYTHONPATH}"
else
  say "no wheels in $WHEELS/: using $PY's own packages"
  export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
fi

# What is importable, from where; the runner's own GPU probe (the line `auto` would print).
"$PY" - >"$LOG/env.log" 2>&1 <<'EOF'
import importlib, sys
print("python", sys.version.split()[0], sys.executable)
missing = []
for name in ("numpy", "lark", "pytest", "cupy", "xdist"):
    try:
        m = importlib.import_module(name)
        print(f"{name} {getattr(m, '__version__', '?')} {getattr(m, '__file__', '')}")
    except Exception as exc:
        print(f"{name}: {exc.__class__.__name__}: {exc}")
        if name in ("numpy", "lark", "pytest"):
            missing.append(name)
if missing:
    print("MISSING", " ".join(missing))
    sys.exit(2)
from gpu_lsp.runner.cupy_backend import probe
reason = probe()
print("runner probe:", reason or "a usable CUDA device")
if reason is not None:
    sys.exit(3)
import cupy
rt = cupy.cuda.runtime
name = rt.getDeviceProperties(0)["name"]
print("device:", name.decode() if isinstance(name, bytes) else name)
print("CUDA runtime", rt.runtimeGetVersion(), "driver", rt.driverGetVersion())
try:
    from cupy.cuda import nvrtc
    print("NVRTC", nvrtc.getVersion())
except Exception as exc:
    print(f"NVRTC: {exc.__class__.__name__}: {exc}")
EOF
env_rc=$?
cat "$LOG/env.log"
if ((env_rc == 2)); then
  say "FAILED: $(grep ^MISSING "$LOG/env.log") (carry them as wheels in $WHEELS/, see the top of this script)"
  exit 2
elif ((env_rc == 3)); then
  say "NO GPU: $(grep '^runner probe:' "$LOG/env.log")"
  status=3
elif ((env_rc != 0)); then
  say "FAILED: the environment check (env.log)"
  status=1
else
  say "$(grep -E '^(device|CUDA runtime|NVRTC)' "$LOG/env.log" | paste -sd ';' -)"
fi

# --- nvidia-smi -------------------------------------------------------------------------------
if command -v nvidia-smi >/dev/null 2>&1; then
  if timeout 60 nvidia-smi >"$LOG/nvidia-smi.log" 2>&1; then
    say "nvidia-smi: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | head -1)"
  else
    say "FAILED: nvidia-smi (nvidia-smi.log)"
    ((status)) || status=1
  fi
  cat "$LOG/nvidia-smi.log"
else
  say "nvidia-smi is not on the PATH"
  echo "nvidia-smi is not on the PATH" >"$LOG/nvidia-smi.log"
fi

# --- the CuPy backend against the NumPy backend -----------------------------------------------
if [ -d ../shared/corpus ] && [ -d ../shared/corpus-extended ]; then
  say "integration programs: from ../shared/corpus and ../shared/corpus-extended"
else
  say "FAILED: ../shared/corpus or ../shared/corpus-extended is missing: the integration programs are not compared"
  ((status)) || status=1
fi
xdist=()
if grep -q '^xdist ' "$LOG/env.log"; then xdist=(-n 4); fi
echo "==> $PY -m pytest -q -m gpu tests/runner ${xdist[*]}"
timeout "${GPU_CHECK_PYTEST_TIMEOUT:-330}" "$PY" -m pytest -q -m gpu "${xdist[@]}" tests/runner 2>&1 | tee "$LOG/pytest_gpu.log"
rc=${PIPESTATUS[0]}
summary=$(grep -E '^(=+ )?[0-9]+ (passed|failed|skipped|deselected|error)' "$LOG/pytest_gpu.log" | tail -1)
if ((rc == 0)); then
  say "pytest -m gpu tests/runner: ${summary:-exit 0}"
  if ((status == 0)) && grep -qE '[0-9]+ skipped' <<<"$summary"; then
    say "FAILED: GPU tests were skipped on a machine with a GPU"
    status=1
  fi
else
  ((rc == 124)) && summary="timed out after ${GPU_CHECK_PYTEST_TIMEOUT:-330} s; $summary"
  say "FAILED: pytest -m gpu tests/runner (exit $rc): $summary (pytest_gpu.log)"
  ((status)) || status=1
fi

# --- the benchmark ------------------------------------------------------------------------------
echo "==> $PY benchmarks/run_cupy.py ${GPU_CHECK_BENCH_ARGS:-}"
# shellcheck disable=SC2086  # the arguments are meant to split
timeout "${GPU_CHECK_BENCH_TIMEOUT:-200}" "$PY" benchmarks/run_cupy.py ${GPU_CHECK_BENCH_ARGS:-} 2>&1 | tee "$LOG/run_cupy.log"
rc=${PIPESTATUS[0]}
if ((rc == 0)); then
  say "run_cupy.py: $(grep -E '^(goal|run_cupy: no GPU)' "$LOG/run_cupy.log" | head -1)"
  grep '^launch overhead' "$LOG/run_cupy.log" >>"$LOG/summary.txt"
else
  ((rc == 124)) && say "run_cupy.py timed out after ${GPU_CHECK_BENCH_TIMEOUT:-200} s"
  say "FAILED: benchmarks/run_cupy.py (exit $rc): $(tail -1 "$LOG/run_cupy.log") (run_cupy.log)"
  ((status)) || status=1
fi

say "done: exit $status; logs in $LOG"
exit "$status"
