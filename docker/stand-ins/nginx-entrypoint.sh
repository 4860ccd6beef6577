#!/bin/sh
# The start-up steps of the official nginx image's entrypoint that docker/compose.yaml relies on:
# every executable /docker-entrypoint.d/*.envsh is sourced (in name order), then every
# /etc/nginx/templates/*.template is written to /etc/nginx/conf.d/ with the environment's
# variables (only those) substituted.
set -eu
for script in $(find /docker-entrypoint.d/ -follow -type f -name '*.envsh' 2> /dev/null | sort -V); do
  if [ -x "$script" ]; then
    echo "nginx-entrypoint: sourcing $script"
    # shellcheck disable=SC1090 # the scripts are mounted at run time
    . "$script"
  fi
done
defined="$(env | cut -d= -f1 | grep -E '^[A-Za-z_][A-Za-z0-9_]*$' | sed 's/.*/${&}/' | tr '\n' ' ')"
for template in /etc/nginx/templates/*.template; do
  [ -f "$template" ] || continue
  output="/etc/nginx/conf.d/$(basename "$template" .template)"
  envsubst "$defined" < "$template" > "$output"
  echo "nginx-entrypoint: wrote $output from $template"
done
exec "$@"
