#!/usr/bin/env bash
# A child that starts its own child (a grandchild of the executor), both
# waiting forever: the timeout must end all three.
bash -c 'sleep 300 & echo $! >> "$1"; wait' _ "$1" &
echo $! >> "$1"
wait
