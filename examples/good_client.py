#!/usr/bin/env python3
"""A conforming merchant back end in Python, standard library only (P-CLIENT-1..8).

The same flow as good-client.mjs: Create Order (fresh order_id), Order Status, Balance Inquiry,
Transaction Initiation (fresh payout_order_id), Payout Status until the payout settles. A create
that fails with a 5xx, a 429 or no answer is followed by a status query and repeated (the same
order, the same payout) only if the status query answers 404. Money is handled as payment code
usually handles it, with decimal.Decimal, and sent as decimal strings ("2750.25"), which P-AMOUNT-1
allows; each request opens a new connection (urllib.request).

Reads SVC_BASE_URL, SVC_API_KEY, SVC_SECRET_KEY and SVC_WALLET_ID. millisecond-client.py reuses
the Client class below with another clock.
"""
import hashlib
import hmac
import json
import os
import sys
import time
import urllib.error
import urllib.request
import uuid
from decimal import Decimal

PATHS = {
    "create_order": "/api/v3/pg/order/create",
    "order_status": "/api/v3/pg/order/status",
    "balance_inquiry": "/api/v3/banking/balance",
    "transaction_initiation": "/api/v3/banking/payment/initiate",
    "payout_status": "/api/v3/banking/payment/status",
}


def log(line):
    print(f"[{os.path.basename(sys.argv[0])}] {line}", flush=True)


def canonical_json(payload):
    # P-SIGN-1 for these payloads: sorted keys at every depth, compact, "/" and non-ASCII left as
    # they are. Amounts are ints or have a non-zero cent, so Python writes them as JavaScript does.
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def whole_seconds():
    return int(time.time())


def target_from_env():
    names = ["SVC_BASE_URL", "SVC_API_KEY", "SVC_SECRET_KEY", "SVC_WALLET_ID"]
    missing = [name for name in names if not os.environ.get(name)]
    if missing:
        print(f"missing {', '.join(missing)}: run under `svc-conformance verify-client -- …`", file=sys.stderr)
        sys.exit(2)
    return {name: os.environ[name] for name in names}


class Client:
    """Signs and sends; returns (status, body, retry_after_seconds); status 0 means no answer."""

    def __init__(self, target, timeout=3.0, clock=whole_seconds):
        self.base_url = target["SVC_BASE_URL"].rstrip("/")
        self.api_key = target["SVC_API_KEY"]
        self.secret = target["SVC_SECRET_KEY"].encode("utf-8")
        self.timeout = timeout
        self.clock = clock
        self.sent_pairs = set()  # (timestamp, signature) pairs already used (P-CLIENT-3)

    def sign(self, body_text):
        while True:
            timestamp = str(self.clock())
            message = (body_text + timestamp).encode("utf-8")
            signature = hmac.new(self.secret, message, hashlib.sha256).hexdigest()
            if (timestamp, signature) not in self.sent_pairs:
                self.sent_pairs.add((timestamp, signature))
                return timestamp, signature
            time.sleep(1.005 - time.time() % 1)  # same body, same second: wait for a new second

    def send(self, path, payload):
        body_text = canonical_json(payload)
        timestamp, signature = self.sign(body_text)
        request = urllib.request.Request(
            self.base_url + path,
            data=body_text.encode("utf-8"),  # exactly the signed text
            method="POST",
            headers={
                "Content-Type": "application/json",
                "Accept": "application/json",
                "X-API-KEY": self.api_key,
                "X-TIMESTAMP": timestamp,
                "X-SIGNATURE": signature,
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return response.status, read_json(response), None
        except urllib.error.HTTPError as error:  # 4xx and 5xx answers
            return error.code, read_json(error), retry_after(error.headers.get("Retry-After"))
        except (urllib.error.URLError, TimeoutError, OSError) as error:
            return 0, {"message": f"no answer ({getattr(error, 'reason', error)})"}, None


def read_json(response):
    try:
        return json.loads(response.read().decode("utf-8"))
    except (ValueError, OSError):
        return None


def retry_after(value):
    return int(value) if value and value.strip().isdigit() else None


def describe(status, body):
    return str(status) if status else (body or {}).get("message", "no answer")


def recoverable(status):
    return status == 0 or status == 429 or status >= 500


def create_with_recovery(client, label, path, payload, status_path, status_payload, record_key):
    """Returns the created record, or None when it gives up."""
    for attempt in range(1, 4):
        status, body, wait = client.send(path, payload)
        log(f"{label}: {'sent' if attempt == 1 else 'repeated the same request'} → {describe(status, body)}")
        if 200 <= status < 300:
            return body[record_key]
        if not recoverable(status):
            break
        wait = (wait if wait is not None else 1) if status == 429 else 1
        log(f"{label}: waiting {wait} s, then asking the status operation (before any repeat)")
        time.sleep(wait)
        for _ in range(3):  # the status query may itself fail for a moment
            s_status, s_body, s_wait = client.send(status_path, status_payload)
            log(f"{label}: status query → {describe(s_status, s_body)}")
            if not recoverable(s_status):
                break
            time.sleep(s_wait if s_wait is not None else 1)
        if s_status == 200:
            log(f"{label}: the earlier attempt went through; not repeating it")
            return s_body["data"]
        if s_status != 404 or attempt == 3:
            break  # unknown outcome (a repeat could duplicate it), or out of attempts
    log(f"{label}: gave up ({describe(status, body)}: {(body or {}).get('message', 'no message')})")
    return None


def main():
    target = target_from_env()
    client = Client(target)
    wallet = target["SVC_WALLET_ID"]

    order_id = f"ORD-{uuid.uuid4()}"
    order = {
        "order_id": order_id,
        "order_amount": str(Decimal("2750.25")),
        "order_currency": "INR",
        "order_note": "Ceramic mugs ×4 & a teapot <fragile>",
        "service_type": "payment",
        "customer": {
            "name": "Zoë Brandt",
            "email": "zoe.brandt@example.com",
            "phone": "+919876543210",
            "address": {"line1": "7 Park Street", "city": "Kolkata", "state": "WB", "country": "IN", "postal_code": "700016"},
        },
        "return_url": f"https://shop.example/orders/{order_id}/return?src=checkout",
    }
    record = create_with_recovery(client, f"Create Order {order_id}", PATHS["create_order"], order,
                                  PATHS["order_status"], {"order_id": order_id}, "return_data")
    if record is None:
        sys.exit(1)
    log(f"Create Order {order_id}: {record['order_status']}, checkout at {record.get('payment_link')}")

    status, body, _ = client.send(PATHS["order_status"], {"order_id": order_id})
    log(f"Order Status {order_id} → {describe(status, body)}" + (f": {body['data']['order_status']}" if status == 200 else ""))

    amount = Decimal("12.50")
    status, body, _ = client.send(PATHS["balance_inquiry"], {"svc_wallet_id": wallet})
    if status != 200:
        log(f"Balance Inquiry → {describe(status, body)}: not paying out without a known balance")
        return
    log(f"Balance Inquiry → 200: {body['data']['balance']} {body['data']['currency']}")
    if Decimal(body["data"]["balance"]) < amount:
        log(f"Balance Inquiry: less than the payout of {amount}; skipping the payout")
        return

    payout_order_id = f"PO-{uuid.uuid4()}"
    status_request = {"svc_wallet_id": wallet, "debit_account_type": "svc_wallet", "payout_order_id": payout_order_id}
    initiation = dict(status_request, amount=str(amount), currency="INR", transfer_mode="imps",
                      beneficiary={"name": "Ravi Kumar", "account_number": "50100123456789", "ifsc": "ICIC0000042"})
    payout = create_with_recovery(client, f"Transaction Initiation {payout_order_id}", PATHS["transaction_initiation"],
                                  initiation, PATHS["payout_status"], status_request, "data")
    if payout is None:
        sys.exit(1)
    log(f"Transaction Initiation {payout_order_id}: {payout['status']} ({payout['message']})")

    # The initiation answer is not final: ask Payout Status once, then poll while it is in flight.
    deadline = time.monotonic() + 6
    first = True
    while first or (payout["status"] in ("PROCESSING", "PENDING") and time.monotonic() < deadline):
        if not first:
            time.sleep(1)
        first = False
        status, body, _ = client.send(PATHS["payout_status"], status_request)
        log(f"Payout Status {payout_order_id} → {describe(status, body)}" + (f": {body['data']['status']}" if status == 200 else ""))
        if status == 200:
            payout = body["data"]

    if payout["status"] == "SUCCESS":
        log(f"payout {payout_order_id} settled: UTR {payout['utr_number']}")
    elif payout["status"] == "FAILED":
        log(f"payout {payout_order_id} FAILED: {payout['message']} (debited: {payout['amount_debited']}); nothing to reconcile")
    else:
        log(f"payout {payout_order_id} still {payout['status']}; left for the next reconciliation run")


if __name__ == "__main__":
    main()
