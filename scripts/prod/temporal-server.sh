#!/usr/bin/env bash
# Prints the folder holding the Temporal server (`temporal-server`) and its SQL schema tool
# (`temporal-sql-tool`), building both with `go install` at the pinned version when they are not
# cached. Production's Temporal, not the dev server: PostgreSQL persistence, four services.
set -euo pipefail

# The version the Temporal CLI (scripts/temporal-cli.sh) bundles, and the compose file's image:
# v1.29.x has no `replace` directive, so `go install pkg@version` accepts it.
TEMPORAL_SERVER_VERSION="v1.29.1"
cache_root="${XDG_CACHE_HOME:-$HOME/.cache}/cloudsvc/temporal-server/${TEMPORAL_SERVER_VERSION}"

if [ -x "${cache_root}/temporal-server" ] && [ -x "${cache_root}/temporal-sql-tool" ]; then
  echo "${cache_root}"
  exit 0
fi
if ! command -v go >/dev/null 2>&1; then
  echo "The production shape builds the Temporal server with Go 1.24+, and there is no go on PATH." >&2
  exit 1
fi

echo "Building the Temporal server ${TEMPORAL_SERVER_VERSION} with go install (once; cached in ${cache_root})..." >&2
mkdir -p "${cache_root}"
exec 9>"${cache_root}.lock"
flock 9
build="${cache_root}/.build"
mkdir -p "${build}"
for tool in server:temporal-server tools/sql:temporal-sql-tool; do
  package="${tool%%:*}"
  name="${tool##*:}"
  if [ ! -x "${cache_root}/${name}" ]; then
    GOBIN="${build}" GOFLAGS="-trimpath" go install "go.temporal.io/server/cmd/${package}@${TEMPORAL_SERVER_VERSION}" >&2
    mv "${build}/$(basename "${package}")" "${cache_root}/${name}"
  fi
done
rmdir "${build}" 2>/dev/null || true
echo "${cache_root}"
