#!/usr/bin/env python3
"""BROKEN ON PURPOSE: P-HOOK-6 (answer 200 to a genuine delivery, whatever UTF-8 text it holds).

A receiver that verifies a re-serialization instead of the bytes it received, as P-HOOK-6 allows,
but with Python's default json.dumps: it parses the body first (400 if it is not JSON) and checks
the HMAC over json.dumps(parsed, sort_keys=True, separators=(",", ":")) + timestamp. Its
ensure_ascii=True writes "Ü" as "\\u00dc", so every genuine event whose strings hold non-ASCII
text (a German payout message, a customer's name) is refused with 401, and the sender retries it
in vain; ASCII-only events pass. Everything else is good_receiver.py: the timestamp window, 401
for a forgery, 200 for a redelivery, client mode.
"""
import hashlib
import hmac
import json
import sys

sys.dont_write_bytecode = True  # keep examples/ free of __pycache__
from good_receiver import Receiver, Refused, main


class ReserializingReceiver(Receiver):
    def check_signature(self, raw, timestamp, signature):
        parsed = self.parse(raw)  # 400 when the body is not a JSON object
        if signature is None:
            raise Refused(401, "X-SIGNATURE missing")
        text = json.dumps(parsed, sort_keys=True, separators=(",", ":"))  # the defect: ensure_ascii=True
        expected = hmac.new(self.secret, (text + timestamp).encode("utf-8"), hashlib.sha256).hexdigest()
        if not hmac.compare_digest(signature.encode("utf-8"), expected.encode("ascii")):
            raise Refused(401, "signature does not match")


if __name__ == "__main__":
    main(ReserializingReceiver)
