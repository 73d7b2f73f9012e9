#!/usr/bin/env bash
# Build the web page (issue 26, docs/web.md): the pdp1-web crate for wasm32, then wasm-bindgen's
# JavaScript glue, into crates/pdp1-web/pkg/ (not in git). The `pdp1` binary embeds pkg/ and
# www/ the next time it is built (`pdp1 --serve`, `pdp1 --write-page DIR`).
# Needs: rustup target add wasm32-unknown-unknown; cargo install wasm-bindgen-cli --version
# equal to the `wasm-bindgen` crate's (crates/pdp1-web/Cargo.toml).
set -euo pipefail
cd "$(dirname "$0")/../.."
want="$(sed -n 's/^wasm-bindgen = "=\(.*\)"/\1/p' crates/pdp1-web/Cargo.toml)"
have="$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" || true
if [ "$have" != "$want" ]; then
  echo "build.sh: wasm-bindgen $want is needed (have: ${have:-none}): cargo install wasm-bindgen-cli --version $want" >&2
  exit 1
fi
cargo build --profile web -p pdp1-web --target wasm32-unknown-unknown
target="${CARGO_TARGET_DIR:-target}"
wasm-bindgen --target web --no-typescript --out-dir crates/pdp1-web/pkg \
  "$target/wasm32-unknown-unknown/web/pdp1_web.wasm"
ls -l crates/pdp1-web/pkg
