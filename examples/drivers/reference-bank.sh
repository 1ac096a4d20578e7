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
    sig=$(printf '%s%s' "$body" "$ts" | openssl dgst -sha256 -hmac "$SVC_SECRET_KEY" | sed 's/^.*= //')
    curl -sSf -o /dev/null "$SVC_BASE_URL/sandbox/payouts/settle" -H 'content-type: application/json' \
      -H "x-api-key: $SVC_API_KEY" -H "x-timestamp: $ts" -H "x-signature: $sig" --data "$body"
    ;;
  *)
    echo "reference-bank.sh: pay, fail, expire or settle, not $1" >&2
    exit 2
    ;;
esac
