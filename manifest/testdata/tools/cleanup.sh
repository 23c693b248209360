#!/usr/bin/env bash
# tool_id: cleanup_tmp
# tool_type: script
# version: 0.2.0
# executor: bash_runtime
# description: Remove temporary files older than a day
set -euo pipefail
find "${TMPDIR:-/tmp}" -maxdepth 1 -type f -mtime +1 -name 'judge-*' -delete
