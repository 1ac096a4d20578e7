#!/usr/bin/env bash
# The GitHub Action's gate (action.yml): turns the action's inputs (INPUT_* variables, never
# interpolated into the script) into one svc-conformance command line and runs it. Its exit status
# is the command's: 0 conformant, 1 a MUST broken (or a SHOULD, with strict), 2 bad usage or config.
set -euo pipefail
kit="${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/.." && pwd)}"
command="${INPUT_COMMAND:-run}"
args=("$command" --report-dir "${INPUT_REPORT_DIR:-svc-reports}")
if [ "${INPUT_STRICT:-false}" = "true" ]; then args+=(--strict); fi
config=()
if [ -n "${INPUT_CONFIG:-}" ]; then config=(--config "$INPUT_CONFIG"); fi
case "$command" in
  run)
    args+=("${config[@]}")
    if [ -n "${INPUT_ONLY:-}" ]; then args+=(--only "$INPUT_ONLY"); fi
    if [ -n "${INPUT_SKIP:-}" ]; then args+=(--skip "$INPUT_SKIP"); fi
    ;;
  verify-receiver)
    if [ -z "${INPUT_URL:-}" ]; then echo "svc-conformance action: verify-receiver needs the url input" >&2; exit 2; fi
    args+=("${config[@]}" --url "$INPUT_URL")
    ;;
  verify-client)
    # Its target is the kit's own recording sandbox: no config.
    if [ -z "${INPUT_CLIENT:-}" ]; then echo "svc-conformance action: verify-client needs the client input (the command that runs your client)" >&2; exit 2; fi
    IFS=',' read -r -a scenarios <<< "${INPUT_SCENARIOS:-}"
    for scenario in "${scenarios[@]}"; do
      if [ -n "$scenario" ]; then args+=(--scenario "$scenario"); fi
    done
    if [ -n "${INPUT_WEBHOOK_URL:-}" ]; then args+=(--webhook-url "$INPUT_WEBHOOK_URL"); fi
    args+=(-- bash -c "$INPUT_CLIENT")
    ;;
  *)
    echo "svc-conformance action: command is run, verify-client or verify-receiver, not \"$command\"" >&2
    exit 2
    ;;
esac
exec node "$kit/bin/svc-conformance.js" "${args[@]}"
