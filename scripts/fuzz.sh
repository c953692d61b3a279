#!/usr/bin/env bash
# Runs every cargo-fuzz target of fuzz/ for SECONDS each (default 60), one after the other.
# Needs a nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`); not part of .ci/run.
# Crashes land in fuzz/artifacts/<target>/; turn each into a regression test in tests/.
set -euo pipefail
seconds="${1:-60}"
cd "$(dirname "$0")/.."
if ! rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
  echo "fuzz.sh: no nightly toolchain (rustup toolchain install nightly); cargo-fuzz needs it" >&2
  exit 1
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
  echo "fuzz.sh: cargo-fuzz is not installed (cargo install cargo-fuzz)" >&2
  exit 1
fi
status=0
for target in $(cargo +nightly fuzz list); do
  echo "== $target ($seconds s)"
  # -rss_limit_mb: a bomb that takes more than 2 GiB is a finding, as is a timeout of 10 s.
  if ! cargo +nightly fuzz run "$target" -- -max_total_time="$seconds" -rss_limit_mb=2048 \
      -timeout=10 -print_final_stats=1; then
    echo "fuzz.sh: $target found a crash (see fuzz/artifacts/$target/)" >&2
    status=1
  fi
done
exit $status
