#!/usr/bin/env bash
set -eu
[ "$1" = "--name" ] || { echo "usage: greet.sh --name NAME" >&2; exit 2; }
printf 'hello, %s\n' "$2"
