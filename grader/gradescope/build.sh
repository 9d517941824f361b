#!/usr/bin/env bash
# Builds everything grading needs, once (setup.sh runs it on Gradescope):
# - Cargo's cache of every crate the course locks (fetched now: grading
#   builds offline, in a sandbox without network);
# - the grader, into course/bin/grader (or, with `--grader PATH`, a grader
#   already built from the same sources is copied there instead);
# - the course's part of every driver, by grading the reference crate the
#   way uploads are graded: it must score full marks, or the bundle is
#   broken and this fails.
# Usage: build.sh [--grader PATH]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=/dev/null
. "$here/course.env"
course="$here/course"
cd "$course"

host="$(rustc -vV | sed -n 's/^host: //p')"
cargo fetch --locked --target "$host"

mkdir -p "$course/bin"
if [ "${1:-}" = "--grader" ] && [ -n "${2:-}" ]; then
    cp "$2" "$course/bin/grader"
else
    cargo build --release --locked --offline -p grader --bin grader
    cp "${CARGO_TARGET_DIR:-$course/target}/release/grader" "$course/bin/grader"
fi

"$course/bin/grader" gradescope --course "$course" --game "$GAME" --reference
