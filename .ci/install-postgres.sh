#!/usr/bin/env bash
# Make sure PostgreSQL server binaries (>= 15) exist for the tests, which start their own
# throwaway server.  Installs Debian's `postgresql` package only when no server is found;
# safe to run repeatedly.  The cluster Debian creates (and may fail to start because of
# policy-rc.d) is left alone: the tests never use it.
set -euo pipefail

find_initdb() {
  # highest /usr/lib/postgresql/<major>/bin/initdb with major >= 15
  local best="" best_major=0 f major
  for f in /usr/lib/postgresql/*/bin/initdb; do
    [ -x "$f" ] || continue
    major=$(basename "$(dirname "$(dirname "$f")")")
    major=${major%%.*}
    [[ "$major" =~ ^[0-9]+$ ]] || continue
    if [ "$major" -ge 15 ] && [ "$major" -gt "$best_major" ]; then best=$f; best_major=$major; fi
  done
  [ -n "$best" ] && echo "$best"
}

initdb=$(find_initdb || true)
if [ -z "$initdb" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "install-postgres: no PostgreSQL >= 15 server under /usr/lib/postgresql and not root; install the 'postgresql' package" >&2
    exit 1
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-postgres: no PostgreSQL >= 15 server and no apt-get; install PostgreSQL server binaries manually" >&2
    exit 1
  fi
  echo "install-postgres: installing Debian package postgresql ..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  # Starting the default cluster may be refused by policy-rc.d; that is harmless, so
  # judge success by the binaries being present rather than by apt-get's exit status alone.
  apt-get install -y -q postgresql || echo "install-postgres: apt-get install exited $?" >&2
  initdb=$(find_initdb || true)
  if [ -z "$initdb" ]; then
    echo "install-postgres: installation did not provide /usr/lib/postgresql/<ver>/bin/initdb (ver >= 15)" >&2
    exit 1
  fi
fi

bindir=$(dirname "$initdb")
echo "install-postgres: $("$bindir/postgres" --version) at $bindir"
