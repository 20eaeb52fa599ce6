# Sourced by the image builds: where the image store is (AGENT_QEMU_IMAGE_STORE, as the agent
# reads it), whether an image is built at its version already, and how a built image takes its
# place whole (a build cut short never passes for one).
STORE="${AGENT_QEMU_IMAGE_STORE:-${XDG_CACHE_HOME:-$HOME/.cache}/cloudsvc/images}"

# When CODE is built at VERSION already: prints its directory and ends the build.
exit_if_built() {
  local dir="$STORE/$1"
  if [[ "$(cat "$dir/version" 2>/dev/null)" == "$2" ]]; then
    echo "$dir"
    exit 0
  fi
}

# Puts the built directory SRC into the store as CODE at VERSION, and prints where.
install_image() {
  local src=$1 dir="$STORE/$2"
  echo "$3" >"$src/version"
  mkdir -p "$STORE"
  rm -rf "$dir.new" && mv "$src" "$dir.new"
  rm -rf "$dir" && mv "$dir.new" "$dir"
  echo "$dir"
}
