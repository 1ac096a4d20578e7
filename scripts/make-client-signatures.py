#!/usr/bin/env python3
"""Signatures made the way real clients make them, with Python's own json and hmac modules.

The diagnose tests read the output (signer/fixtures/client-signatures.json) and must name the
variants written here by hand. Nothing here uses the kit's code, so the fixture is independent of it.
Run: python3 scripts/make-client-signatures.py [OUT | -]
"""
import base64
import hashlib
import hmac
import json
import pathlib
import sys

SECRET = "sk_test_diag_5f2c9a"
TS = 1732147200

ORDER = {
    "order_id": "ORD-2026-0042",
    "order_amount": 1499.5,
    "order_currency": "INR",
    "order_note": "gift wrap <fragile> & quick",
    "service_type": "payment",
    "customer": {
        "name": "José Müller",
        "email": "jose@example.com",
        "phone": "+919812345678",
        "address": {"line1": "12 MG Road", "city": "Pune", "state": "MH", "country": "IN", "postal_code": "411001"},
    },
    "return_url": "https://shop.example.com/return?order=ORD-2026-0042&lang=en",
}
# The canonical text of ORDER, written out by hand (P-SIGN-1).
CANONICAL = (
    '{"customer":{"address":{"city":"Pune","country":"IN","line1":"12 MG Road","postal_code":"411001","state":"MH"},'
    '"email":"jose@example.com","name":"José Müller","phone":"+919812345678"},'
    '"order_amount":1499.5,"order_currency":"INR","order_id":"ORD-2026-0042",'
    '"order_note":"gift wrap <fragile> & quick","return_url":"https://shop.example.com/return?order=ORD-2026-0042&lang=en",'
    '"service_type":"payment"}'
)
assert json.loads(CANONICAL) == ORDER


def hexsig(text, secret=SECRET):
    return hmac.new(secret.encode(), text.encode(), hashlib.sha256).hexdigest()


def case(name, body, signature, variants, timestamp=str(TS), secret=SECRET, api_key=None):
    out = {"name": name, "body": body, "timestamp": timestamp, "secret": secret, "signature": signature, "variants": variants}
    if api_key:
        out["apiKey"] = api_key
    return out


py_default = json.dumps(ORDER)  # ensure_ascii, ", " / ": " separators, insertion order
py_sorted = json.dumps(ORDER, sort_keys=True)
py_compact_sorted = json.dumps(ORDER, sort_keys=True, separators=(",", ":"))  # still ensure_ascii
py_indent = json.dumps(ORDER, sort_keys=True, indent=2, ensure_ascii=False)
float_order = dict(ORDER, order_amount=1500.0)
float_canonical = CANONICAL.replace("1499.5", "1500")
py_float = json.dumps(float_order, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

cases = [
    case("canonical", CANONICAL, hexsig(CANONICAL + str(TS)), ["canonical"]),
    # The client sends its Python text and signs it: the body as sent is the Python text.
    case("python json.dumps defaults", py_default, hexsig(py_default + str(TS)), ["unsorted-keys", "escaped-unicode", "pretty-printed"]),
    case("python sort_keys only", py_sorted, hexsig(py_sorted + str(TS)), ["escaped-unicode", "pretty-printed"]),
    case("python compact, sorted, ascii", py_compact_sorted, hexsig(py_compact_sorted + str(TS)), ["escaped-unicode"]),
    case("python indent=2", py_indent, hexsig(py_indent + str(TS)), ["pretty-printed"]),
    # The client signs its own text but the framework sends the canonical text: diagnose sees only the
    # canonical body, so it can rebuild Python's escaping and separators (key order would be lost).
    case("python sort_keys signed, canonical body sent", CANONICAL, hexsig(py_sorted + str(TS)), ["escaped-unicode", "pretty-printed"]),
    case("python float amount", float_canonical, hexsig(py_float + str(TS)), ["number-format"]),
    case("python time.time() timestamp", CANONICAL, hexsig(CANONICAL + "1732147200.123456"), ["timestamp-fractional"], timestamp="1732147200.123456"),
    case("milliseconds signed, seconds sent", CANONICAL, hexsig(CANONICAL + "1732147200417"), ["timestamp-milliseconds"]),
    case("milliseconds sent and signed", CANONICAL, hexsig(CANONICAL + "1732147200417"), ["timestamp-milliseconds"], timestamp="1732147200417"),
    case("timestamp first", CANONICAL, hexsig(str(TS) + CANONICAL), ["timestamp-first"]),
    case("payload only", CANONICAL, hexsig(CANONICAL), ["timestamp-omitted"]),
    case("base64 digest", CANONICAL, base64.b64encode(hmac.new(SECRET.encode(), (CANONICAL + str(TS)).encode(), hashlib.sha256).digest()).decode(), ["base64"]),
    case("uppercase hex", CANONICAL, hexsig(CANONICAL + str(TS)).upper(), ["uppercase-hex"]),
    case("secret with trailing newline", CANONICAL, hexsig(CANONICAL + str(TS), SECRET + "\n"), ["secret-trailing-newline"]),
    case("sha256= prefix", CANONICAL, "sha256=" + hexsig(CANONICAL + str(TS)), ["signature-prefix"]),
    case("sha512", CANONICAL, hmac.new(SECRET.encode(), (CANONICAL + str(TS)).encode(), hashlib.sha512).hexdigest(), ["hmac-sha512"]),
    case("empty body", "", hexsig(str(TS)), ["canonical"]),
    case("empty body signed as {}", "", hexsig("{}" + str(TS)), ["empty-body-signed-as-json"]),
    # Signs the canonical text, then requests.post(json=order) serializes the dict again for the body.
    case("python: canonical text signed, json.dumps(order) sent", py_default, hexsig(CANONICAL + str(TS)), ["body-not-canonical"]),
    case("wrong secret", CANONICAL, hexsig(CANONICAL + str(TS), "sk_test_someone_else"), []),
    case("production key with a sandbox secret", CANONICAL, hexsig(CANONICAL + str(TS), "sk_live_prod_secret"), [], api_key="pk_live_9f8e7d"),
]

text = json.dumps({"generator": "scripts/make-client-signatures.py", "cases": cases}, indent=2, ensure_ascii=False) + "\n"
target = sys.argv[1] if len(sys.argv) > 1 else str(pathlib.Path(__file__).resolve().parent.parent / "signer" / "fixtures" / "client-signatures.json")
if target == "-":
    sys.stdout.write(text)
else:
    pathlib.Path(target).write_text(text)
    print(f"wrote {len(cases)} cases to {target}", file=sys.stderr)
