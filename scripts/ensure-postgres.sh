#!/usr/bin/env bash
# Finds or obtains PostgreSQL 15 for the team-server tests (throwaway clusters: one the run starts for the `instances`
# project, and some files' own) and pgvector, built from its vendored source. `npm test` runs this; both steps do
# nothing when already present, and the tests that need PostgreSQL skip, saying why, when it could not be had.
set -uo pipefail
cd "$(dirname "$0")/.."
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo -n "$@"; else return 1; fi; }
PG_BIN=/usr/lib/postgresql/15/bin
apt_install() {
  command -v apt-get >/dev/null || return 1
  echo "Installing $* from Debian's packages for the PostgreSQL tests..."
  as_root apt-get update -qq && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"
}
[ -x "$PG_BIN/initdb" ] || apt_install postgresql || { echo "No PostgreSQL 15: its tests will skip (sudo apt-get install postgresql)."; exit 0; }
PGVECTOR_SOURCE=../shared/vendor/pgvector-0.8.6.tar.gz
if [ ! -f "$("$PG_BIN/pg_config" --sharedir)/extension/vector.control" ] && [ -f "$PGVECTOR_SOURCE" ]; then
  [ -f "$("$PG_BIN/pg_config" --includedir-server)/postgres.h" ] || apt_install postgresql-server-dev-15 make gcc
  build=$(mktemp -d)
  tar -xzf "$PGVECTOR_SOURCE" -C "$build" --strip-components=1 &&
    make -s -C "$build" PG_CONFIG="$PG_BIN/pg_config" &&
    as_root make -s -C "$build" PG_CONFIG="$PG_BIN/pg_config" install ||
    echo "pgvector could not be built: the vector tests will skip."
  rm -rf "$build"
fi
exit 0
