#!/bin/sh
# A driver (P-CFG "drivers") for a deployment whose checkout page has test buttons and whose bank
# takes a signed settle request: here the reference sandbox run with `svc-conformance serve`, judged
# as a real deployment. `reference-bank.sh pay|fail|expire` submits the checkout form at
# $PAYMENT_LINK; `reference-bank.sh settle` asks the bank to move $PAYOUT_ORDER_ID to $STATE.
# It exits 0 once the change is made, as every driver must.
set -eu
case "$1" in
  pay | fail | expire)
    outcome=$(case "$1" in pay) echo success ;; fail) echo failure ;; *) echo expire ;; esac)
    curl -sSf -o /dev/null --data "method=upi&outcome=$outcome" "$PAYMENT_LINK"
    ;;
  settle)
    body="{\"payout_order_id\":\"$PAYOUT_ORDER_ID\",\"status\":\"$STATE\"}"
    ts=$(date +%s)
    # The HMAC in node, the secret read from its environment: on openssl's command line (-hmac KEY)
    # any user of the machine could read it in ps.
    sig=$(printf '%s%s' "$body" "$ts" | node -e 'const { createHmac } = require("node:crypto");
      process.stdout.write(createHmac("sha256", process.env.SVC_SECRET_KEY).update(require("node:fs").readFileSync(0)).digest("hex"))')
    curl -sSf -o /dev/null "$SVC_BASE_URL/sandbox/payouts/settle" -H 'content-type: application/json' \
      -H "x-api-key: $SVC_API_KEY" -H "x-timestamp: $ts" -H "x-signature: $sig" --data "$body"
    ;;
  *)
    echo "reference-bank.sh: pay, fail, expire or settle, not $1" >&2
    exit 2
    ;;
esac
