# Starts a throw-away PostgreSQL for the store's tests and exports its URL.
# Usage (from .ci/run or a shell):  source .ci/postgres.sh
#   exports TEST_DATABASE_URL = postgres://tracker:tracker@127.0.0.1:<port>/tracker_sync_test
#   (a free port, or PG_TEST_PORT when set: a server already answering there is reused)
#   (not DATABASE_URL: that would switch every daemon the other suites start to this one database;
#   set PG_TEST_EXPORT_DATABASE_URL=1 to export it too, e.g. to try a daemon by hand)
# Installs Debian's postgresql when initdb/pg_ctl are missing; runs the server as an unprivileged user
# (PostgreSQL refuses to run as root) in a temp folder, on a loopback port, socket under /tmp.
# Sourcing twice in one shell reuses the running server. `pg_test_stop` stops it (also run at the shell's exit).

# a fixed default port met whatever else listened there (another checkout's server, with its own data)
if [ -z "${PG_TEST_PORT:-}" ]; then
  PG_TEST_PORT="$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
fi
PG_TEST_USER_OS="${PG_TEST_USER_OS:-pgtest}"
PG_TEST_DB="${PG_TEST_DB:-tracker_sync_test}"

pg_test_bindir() {
  if command -v pg_ctl >/dev/null 2>&1 && command -v initdb >/dev/null 2>&1; then
    dirname "$(readlink -f "$(command -v pg_ctl)")"
    return 0
  fi
  local dir
  dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
  if [ -n "$dir" ] && [ -x "$dir/initdb" ]; then echo "$dir"; return 0; fi
  return 1
}

pg_test_install() {
  echo "== postgres: installing Debian's postgresql" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends postgresql >&2
}

pg_test_as_user() {
  # runuser keeps the environment out of it; fall back to su where runuser is missing
  if command -v runuser >/dev/null 2>&1; then runuser -u "$PG_TEST_USER_OS" -- "$@"
  else su -s /bin/sh "$PG_TEST_USER_OS" -c "$(printf '%q ' "$@")"; fi
}

pg_test_start() {
  local bindir
  bindir="$(pg_test_bindir)" || { pg_test_install && bindir="$(pg_test_bindir)"; } || {
    echo "postgres: initdb/pg_ctl not found even after installing postgresql" >&2; return 1; }

  if [ "$(id -u)" = "0" ]; then
    id -u "$PG_TEST_USER_OS" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$PG_TEST_USER_OS"
  else
    PG_TEST_USER_OS="$(id -un)"
  fi
  local run_as=()
  [ "$(id -u)" = "0" ] && run_as=(runuser -u "$PG_TEST_USER_OS" --)
  command -v runuser >/dev/null 2>&1 || [ "$(id -u)" != "0" ] || { echo "postgres: runuser missing" >&2; return 1; }

  if "$bindir/pg_isready" -q -h 127.0.0.1 -p "$PG_TEST_PORT" 2>/dev/null; then
    echo "== postgres: already running on 127.0.0.1:$PG_TEST_PORT" >&2
  else
    PG_TEST_DIR="$(mktemp -d /tmp/pgtest.XXXXXX)"
    chown "$PG_TEST_USER_OS" "$PG_TEST_DIR" 2>/dev/null || true
    chmod 700 "$PG_TEST_DIR"
    local pwfile="$PG_TEST_DIR/pw"
    echo tracker > "$pwfile"; chown "$PG_TEST_USER_OS" "$pwfile" 2>/dev/null || true
    "${run_as[@]}" "$bindir/initdb" -D "$PG_TEST_DIR/data" -U tracker --pwfile="$pwfile" -A scram-sha-256 \
      --encoding=UTF8 --locale=C.UTF-8 >"$PG_TEST_DIR/initdb.log" 2>&1 || {
      cat "$PG_TEST_DIR/initdb.log" >&2; return 1; }
    # tests open many short connections (3 daemons + parallel suites): room for them; fsync off: throw-away data
    "${run_as[@]}" "$bindir/pg_ctl" -D "$PG_TEST_DIR/data" -l "$PG_TEST_DIR/server.log" -w -t 60 start \
      -o "-p $PG_TEST_PORT -k /tmp -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" >&2 || {
      cat "$PG_TEST_DIR/server.log" >&2; return 1; }
    export PG_TEST_DIR PG_TEST_BINDIR="$bindir"
    # PG_TEST_KEEP=1 leaves it running after the shell ends (local work)
    [ "${PG_TEST_KEEP:-0}" = "1" ] || trap pg_test_stop EXIT
  fi
  PGPASSWORD=tracker "$bindir/psql" -h 127.0.0.1 -p "$PG_TEST_PORT" -U tracker -d postgres -tAc \
    "SELECT 1 FROM pg_database WHERE datname = '$PG_TEST_DB'" | grep -q 1 ||
    PGPASSWORD=tracker "$bindir/createdb" -h 127.0.0.1 -p "$PG_TEST_PORT" -U tracker "$PG_TEST_DB"

  export TEST_DATABASE_URL="postgres://tracker:tracker@127.0.0.1:$PG_TEST_PORT/$PG_TEST_DB"
  if [ "${PG_TEST_EXPORT_DATABASE_URL:-0}" = "1" ]; then export DATABASE_URL="$TEST_DATABASE_URL"; fi
  echo "== postgres: TEST_DATABASE_URL=postgres://tracker:***@127.0.0.1:$PG_TEST_PORT/$PG_TEST_DB" >&2
}

pg_test_stop() {
  if [ -n "${PG_TEST_DIR:-}" ] && [ -d "$PG_TEST_DIR/data" ]; then
    pg_test_as_user "$PG_TEST_BINDIR/pg_ctl" -D "$PG_TEST_DIR/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$PG_TEST_DIR"
    unset PG_TEST_DIR
  fi
}

pg_test_start
