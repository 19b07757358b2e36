# Starts a throw-away Redis for the cluster suites (BullMQ) and exports its URL.
# Usage (from .ci/run or a shell):  source .ci/redis.sh
#   exports TEST_REDIS_URL = redis://127.0.0.1:<free port>
# Installs Debian's redis-server when it is missing; no persistence (the suites that restart Redis start
# their own). Sourcing twice reuses the running server. `redis_test_stop` stops it (also at the shell's exit,
# after whatever the shell's EXIT trap did before, e.g. postgres.sh's).

redis_test_start() {
  if ! command -v redis-server >/dev/null 2>&1; then
    echo "== redis: installing Debian's redis-server" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq --no-install-recommends redis-server >&2
  fi
  if [ -n "${REDIS_TEST_DIR:-}" ] && [ -f "$REDIS_TEST_DIR/redis.pid" ] && kill -0 "$(cat "$REDIS_TEST_DIR/redis.pid")" 2>/dev/null; then
    echo "== redis: already running: $TEST_REDIS_URL" >&2
    return 0
  fi
  local port
  port="$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
  REDIS_TEST_DIR="$(mktemp -d /tmp/redistest.XXXXXX)"
  # BullMQ wants noeviction: an evicted job or lock key is a lost run
  redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --maxmemory-policy noeviction \
    --daemonize yes --pidfile "$REDIS_TEST_DIR/redis.pid" --logfile "$REDIS_TEST_DIR/redis.log" --dir "$REDIS_TEST_DIR" >&2 || {
    cat "$REDIS_TEST_DIR/redis.log" >&2; return 1; }
  for _ in $(seq 1 50); do
    redis-cli -p "$port" ping >/dev/null 2>&1 && break
    sleep 0.1
  done
  export REDIS_TEST_DIR TEST_REDIS_URL="redis://127.0.0.1:$port"
  local previous
  previous="$(trap -p EXIT | sed -E "s/^trap -- '(.*)' EXIT$/\1/")"
  trap "redis_test_stop; ${previous}" EXIT
  echo "== redis: TEST_REDIS_URL=$TEST_REDIS_URL" >&2
}

redis_test_stop() {
  if [ -n "${REDIS_TEST_DIR:-}" ] && [ -f "$REDIS_TEST_DIR/redis.pid" ]; then
    kill "$(cat "$REDIS_TEST_DIR/redis.pid")" 2>/dev/null || true
    sleep 0.2
    rm -rf "$REDIS_TEST_DIR"
    unset REDIS_TEST_DIR
  fi
}

redis_test_start
