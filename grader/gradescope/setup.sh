#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image
# (the bundle unpacked in /autograder/source, with network access):
# it installs the Rust toolchain the bundle was made with, then build.sh
# builds everything grading needs, so that grading a submission later
# builds only the student's crate, offline.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=/dev/null
. "$here/course.env"

apt-get update
apt-get install -y --no-install-recommends ca-certificates curl build-essential
curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs |
    sh -s -- -y --profile minimal --default-toolchain "$RUST_TOOLCHAIN"
# shellcheck source=/dev/null
. "$HOME/.cargo/env"

"$here/build.sh"
