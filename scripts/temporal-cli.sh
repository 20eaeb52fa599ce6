#!/usr/bin/env bash
# Prints the path of a Temporal CLI to use, building it when there is none.
# Order: $TEMPORAL_CLI, `temporal` on PATH, a cached build, `go install` at the pinned version.
# Every entry point (npm start, npm test, .ci/run) calls this, so all of them use one binary.
set -euo pipefail

# v1.5.1 is the newest tag that `go install` accepts: from v1.6.0 the CLI's go.mod carries a
# `replace` directive, which `go install pkg@version` refuses. It bundles server 1.29 + Web UI.
TEMPORAL_CLI_VERSION="v1.5.1"
cache_root="${XDG_CACHE_HOME:-$HOME/.cache}/cloudsvc/temporal-cli/${TEMPORAL_CLI_VERSION}"
cached="${cache_root}/temporal"

if [ -n "${TEMPORAL_CLI:-}" ]; then
  if [ -x "${TEMPORAL_CLI}" ]; then echo "${TEMPORAL_CLI}"; exit 0; fi
  echo "TEMPORAL_CLI=${TEMPORAL_CLI} is not an executable file" >&2
  exit 1
fi

if on_path=$(command -v temporal 2>/dev/null); then echo "${on_path}"; exit 0; fi

if [ -x "${cached}" ]; then echo "${cached}"; exit 0; fi

if ! command -v go >/dev/null 2>&1; then
  cat >&2 <<MSG
No Temporal CLI found. Install one of:
  - the Temporal CLI (https://docs.temporal.io/cli) so that \`temporal\` is on PATH, or set TEMPORAL_CLI=/path/to/temporal;
  - Go 1.24+, and this script builds temporal ${TEMPORAL_CLI_VERSION} into ${cache_root}.
MSG
  exit 1
fi

mkdir -p "${cache_root}"
# A lock keeps two entry points started at once from building into the same folder: the second
# says that it waits, and takes the first one's build.
exec 9>"${cache_root}.lock"
if ! flock -n 9; then
  echo "Waiting for another build of the Temporal CLI ${TEMPORAL_CLI_VERSION} to finish (it holds ${cache_root}.lock)..." >&2
  flock 9
fi
if [ ! -x "${cached}" ]; then
  log="${cache_root}.build.log"
  echo "Building the Temporal CLI ${TEMPORAL_CLI_VERSION} with go install (once, a few minutes; cached in ${cache_root}, log in ${log})..." >&2
  if ! GOBIN="${cache_root}" GOFLAGS="-trimpath" go install "github.com/temporalio/cli/cmd/temporal@${TEMPORAL_CLI_VERSION}" >"${log}" 2>&1; then
    tail -n 20 "${log}" >&2
    echo "Building the Temporal CLI failed (the whole log: ${log})" >&2
    exit 1
  fi
fi
echo "${cached}"
