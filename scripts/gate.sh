#!/usr/bin/env bash
# The GitHub Action's gate (action.yml): turns the action's inputs (INPUT_* variables, never
# interpolated into the script) into one svc-conformance command line and runs it with the kit's
# built command (action/svc-conformance.mjs, `npm run build:action`). The step's environment, P-CFG's
# SVC_* variables and their secrets with it, reaches the command as it is. Its exit status is the
# command's: 0 conformant, 1 a MUST broken (or a SHOULD, with strict), 2 bad usage or config, or
# inconclusive. What it refuses itself is one line on stderr and exit 2, before anything runs.
set -euo pipefail

refuse() {
  echo "svc-conformance action: $*" >&2
  exit 2
}

# A boolean input is true or false, empty for its default: "yes" or "1" would otherwise quietly mean false.
boolean() {
  case "$2" in
    '') printf '%s' "$3" ;;
    true | false) printf '%s' "$2" ;;
    *)
      echo "svc-conformance action: the $1 input takes true or false, not \"${2//[^[:print:]]/?}\"" >&2
      return 2
      ;;
  esac
}

kit="${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/.." && pwd)}"
command="${INPUT_COMMAND:-run}"
strict=$(boolean strict "${INPUT_STRICT:-}" false) || exit 2
require_all=$(boolean require-all "${INPUT_REQUIRE_ALL:-}" false) || exit 2
embedded_sandbox=$(boolean embedded-sandbox "${INPUT_EMBEDDED_SANDBOX:-}" false) || exit 2
allow_checks=$(boolean allow-checks "${INPUT_ALLOW_CHECKS:-}" false) || exit 2
allow_drivers=$(boolean allow-drivers "${INPUT_ALLOW_DRIVERS:-}" false) || exit 2
# attest is done by action.yml's next step, with the report this step leaves (GITHUB_OUTPUT report=…).
attest=$(boolean attest "${INPUT_ATTEST:-}" false) || exit 2
report_dir="${INPUT_REPORT_DIR:-svc-reports}"

args=("$command" --report-dir "$report_dir")
if [ "$strict" = true ]; then args+=(--strict); fi
if [ "$require_all" = true ]; then args+=(--require-all); fi
config=()
if [ -n "${INPUT_CONFIG:-}" ]; then config=(--config "$INPUT_CONFIG"); fi

case "$command" in
  run)
    # What run certifies when nothing names a target is the kit's own embedded sandbox: green, and
    # about nothing. In a job that is a mistake (a config path lost, a secret not passed) unless asked for.
    target=''
    if [ -n "${INPUT_CONFIG:-}" ]; then target='the config input'
    elif [ -n "${SVC_BASE_URL+set}" ]; then target='SVC_BASE_URL'
    elif [ -f svc-conformance.json ]; then target='./svc-conformance.json'
    fi
    if [ "$embedded_sandbox" = true ] && [ -n "$target" ]; then
      refuse "embedded-sandbox: true certifies the kit's own sandbox, but $target names a target: drop one of them"
    fi
    if [ "$embedded_sandbox" = false ] && [ -z "$target" ] && [ "${GITHUB_ACTIONS:-}" = true ]; then
      refuse "no target to certify: give the config input, SVC_BASE_URL (with SVC_API_KEY, SVC_SECRET_KEY, SVC_WALLET_ID) in the step's env, or ./svc-conformance.json; embedded-sandbox: true certifies the kit's own sandbox on purpose"
    fi
    args+=(${config[@]+"${config[@]}"})
    if [ -n "${INPUT_ONLY:-}" ]; then args+=(--only "$INPUT_ONLY"); fi
    if [ -n "${INPUT_SKIP:-}" ]; then args+=(--skip "$INPUT_SKIP"); fi
    if [ "$allow_checks" = true ]; then args+=(--allow-checks); fi
    if [ "$allow_drivers" = true ]; then args+=(--allow-drivers); fi
    ;;
  verify-receiver)
    if [ -z "${INPUT_URL:-}" ]; then refuse "verify-receiver needs the url input"; fi
    args+=(${config[@]+"${config[@]}"} --url "$INPUT_URL")
    ;;
  verify-client)
    # Its target is the kit's own recording sandbox: no config.
    if [ -z "${INPUT_CLIENT:-}" ]; then refuse "verify-client needs the client input (the command that runs your client)"; fi
    ;;
  *)
    refuse "command is run, verify-client or verify-receiver, not \"$command\""
    ;;
esac
if [ "$embedded_sandbox" = true ] && [ "$command" != run ]; then
  refuse "embedded-sandbox is an input of run; $command does not take it"
fi

# A folder of the gate's own under RUNNER_TEMP (which the runner empties after the job, should this
# script be killed), removed on every way out. It holds the signing key: in a file only this user
# can read, never on a command line, never printed, and not in the environment of the command (a
# client started by verify-client could print its environment).
work_dir=$(umask 077 && mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/svc-conformance-gate.XXXXXXXX") || refuse "cannot make a private folder under ${RUNNER_TEMP:-${TMPDIR:-/tmp}}"
remove_work_dir() {
  rm -rf -- "$work_dir"
}
trap remove_work_dir EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
if [ -n "${INPUT_SIGN_KEY:-}" ]; then
  (umask 077 && printf '%s\n' "${INPUT_SIGN_KEY%$'\n'}" > "$work_dir/sign-key.pem")
  args+=(--sign-key "$work_dir/sign-key.pem")
fi
unset INPUT_SIGN_KEY

if [ "$command" = verify-client ]; then
  IFS=',' read -r -a scenarios <<< "${INPUT_SCENARIOS:-}"
  for scenario in ${scenarios[@]+"${scenarios[@]}"}; do
    if [ -n "$scenario" ]; then args+=(--scenario "$scenario"); fi
  done
  if [ -n "${INPUT_WEBHOOK_URL:-}" ]; then args+=(--webhook-url "$INPUT_WEBHOOK_URL"); fi
  args+=(-- bash -c "$INPUT_CLIENT")
fi

# Older than this, a report.json in the report folder is not this run's (one the command did not get
# to replace, stopping at bad usage): its verdict is not this step's.
: > "$work_dir/started"
status=0
node "$kit/action/svc-conformance.mjs" "${args[@]}" || status=$?

# The step's outputs (GITHUB_OUTPUT: one name=value per line). verdict: report.json's, when this run
# wrote one; with none, nothing was judged (inconclusive). report: this run's, for action.yml's attest step.
report="$report_dir/report.json"
# Prints conformant, not-conformant or inconclusive; "none" when this run wrote no report.json,
# "unknown" when it says no verdict.
read_verdict='
  const { readFileSync, statSync } = require("node:fs");
  const [report, started] = process.argv.slice(1);
  let fresh = false;
  try {
    fresh = statSync(report).mtimeMs >= statSync(started).mtimeMs;
  } catch {}
  let verdict;
  try {
    verdict = fresh ? JSON.parse(readFileSync(report, "utf8")).verdict : undefined;
  } catch {}
  const known = ["conformant", "not-conformant", "inconclusive"].includes(verdict);
  process.stdout.write(!fresh ? "none" : known ? verdict : "unknown");
'
found=none
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  found=$(node -e "$read_verdict" "$report" "$work_dir/started") || found=unknown
  case "$found" in
    none) echo "verdict=inconclusive" >> "$GITHUB_OUTPUT" ;;
    unknown) echo "svc-conformance action: no verdict output: $report_dir/report.json does not say one" >&2 ;;
    *) echo "verdict=$found" >> "$GITHUB_OUTPUT" ;;
  esac
fi
if [ "$attest" = true ] && [ "$found" != none ]; then
  report=$(cd "$(dirname "$report")" && pwd)/report.json
  case "$report" in
    *$'\n'* | *$'\r'*) echo "svc-conformance action: not attesting $report_dir/report.json: its path holds a line break" >&2 ;;
    *) echo "report=$report" >> "$GITHUB_OUTPUT" ;;
  esac
fi
exit "$status"
