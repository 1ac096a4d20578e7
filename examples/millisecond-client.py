#!/usr/bin/env python3
"""BROKEN ON PURPOSE: P-CLIENT-3 (timestamps in whole seconds).

A client whose author took the timestamp from a millisecond clock (as JavaScript's Date.now()
or Java's System.currentTimeMillis() give it): X-TIMESTAMP is UNIX time in milliseconds and the
signature is computed over canonical body + that millisecond text, consistently. Everything else
is good_client.py's conforming code: canonical body, headers, fresh order_id. The service refuses
the request with 401 (P-AUTH-2: a millisecond timestamp is malformed), so the client stops after
its first request and exits 1.
"""
import sys
import time
import uuid

sys.dont_write_bytecode = True  # keep examples/ free of __pycache__
from good_client import PATHS, Client, create_with_recovery, log, target_from_env


def milliseconds():
    return int(time.time() * 1000)  # the defect: should be int(time.time())


def main():
    client = Client(target_from_env(), clock=milliseconds)
    order_id = f"ORD-{uuid.uuid4()}"
    order = {
        "order_id": order_id,
        "order_amount": 899.5,
        "order_currency": "INR",
        "service_type": "payment",
        "customer": {
            "name": "Anaïs Dubois",
            "email": "anais.dubois@example.com",
            "phone": "+919900112233",
            "address": {"line1": "3 Residency Road", "city": "Bengaluru", "state": "KA", "country": "IN", "postal_code": "560025"},
        },
        "return_url": f"https://shop.example/return?order={order_id}",
    }
    record = create_with_recovery(client, f"Create Order {order_id}", PATHS["create_order"], order,
                                  PATHS["order_status"], {"order_id": order_id}, "return_data")
    if record is None:
        log("cannot continue: the service refused the request")
        sys.exit(1)
    status, body, _ = client.send(PATHS["order_status"], {"order_id": order_id})
    log(f"Order Status {order_id} → {status}")


if __name__ == "__main__":
    main()
