#!/usr/bin/env python3
"""A conforming webhook receiver in Python, standard library only (P-HOOK-6..9).

The same rules as good-receiver.mjs with http.server: X-TIMESTAMP must be whole UNIX seconds within
±300 s of our clock and X-SIGNATURE the HMAC-SHA256 over the RAW body bytes + the timestamp text
(compared with hmac.compare_digest), else 401; a body that is not a JSON object gets 400; an
event_id already acknowledged gets 200 again and is not processed twice; a new event is answered
200 at once and processed afterwards, one at a time, on a worker thread. In client mode
(SVC_BASE_URL, SVC_API_KEY and SVC_WALLET_ID set as well) processing confirms the event with
Payout Status or Order Status, using good_client.py's Client; this receiver starts no payout.

Reads SVC_SECRET_KEY (required), PORT (0: a free port) and HOST (127.0.0.1). The broken Python
receivers import the Receiver class below and override one method.
"""
import hashlib
import hmac
import json
import os
import queue
import re
import signal
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.dont_write_bytecode = True  # keep examples/ free of __pycache__
sys.path.insert(1, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from good_client import PATHS, Client, describe, log  # noqa: E402  (examples/good_client.py)

MAX_BODY_BYTES = 1024 * 1024
WINDOW_SECONDS = 300  # P-AUTH-3's default, which P-HOOK-7 applies to deliveries
REMEMBERED_EVENTS = 10_000  # event_ids kept for redelivery (a real receiver keeps them in its database)
WHOLE_SECONDS = re.compile(r"[0-9]+")  # not \d, which also matches other scripts' digits
PAYOUT_EVENTS = {"payout.success", "payout.failed", "payout.processing", "payout.reversed"}
PAYMENT_EVENTS = {"payment.success", "payment.failed", "payment.processing", "payment.expired"}


class Refused(Exception):
    def __init__(self, status, reason):
        super().__init__(reason)
        self.status = status
        self.reason = reason


class Receiver:
    """Checks a delivery and processes events; each broken example overrides one method."""

    def __init__(self, secret, client=None, wallet=None):
        self.secret = secret.encode("utf-8")
        self.client = client  # client mode: a good_client.Client, else None
        self.wallet = wallet
        self.seen = {}  # acknowledged event_ids, oldest first (dicts keep insertion order)
        self.lock = threading.Lock()
        self.jobs = queue.Queue()
        threading.Thread(target=self.work, daemon=True).start()

    # -- the checks, in order --------------------------------------------------------------------

    def check_timestamp(self, timestamp):
        if timestamp is None:
            raise Refused(401, "X-TIMESTAMP missing")
        if not WHOLE_SECONDS.fullmatch(timestamp):
            raise Refused(401, "X-TIMESTAMP is not whole UNIX seconds")
        if abs(int(time.time()) - int(timestamp)) > WINDOW_SECONDS:
            raise Refused(401, f"X-TIMESTAMP more than {WINDOW_SECONDS} s from our clock")

    def check_signature(self, raw, timestamp, signature):
        if signature is None:
            raise Refused(401, "X-SIGNATURE missing")
        expected = hmac.new(self.secret, raw + timestamp.encode("utf-8"), hashlib.sha256).hexdigest()
        if not hmac.compare_digest(signature.encode("utf-8"), expected.encode("ascii")):
            raise Refused(401, "signature does not match")

    def parse(self, raw):
        try:
            event = json.loads(raw.decode("utf-8"))
        except ValueError:  # UnicodeDecodeError and JSONDecodeError both are
            raise Refused(400, "body is not JSON") from None
        if not isinstance(event, dict):
            raise Refused(400, "body is not a JSON object")
        if not isinstance(event.get("event_id"), str) or not event["event_id"]:
            raise Refused(400, "event_id missing")
        return event

    def handle(self, headers, raw):
        """Returns (status, body, log label, outcome, the event to process or None); raises Refused."""
        timestamp = headers.get("X-TIMESTAMP")
        self.check_timestamp(timestamp)
        self.check_signature(raw, timestamp, headers.get("X-SIGNATURE"))
        event = self.parse(raw)
        label = f"{event['event'] if isinstance(event.get('event'), str) else '-'} {event['event_id']}"
        with self.lock:
            if event["event_id"] in self.seen:
                return 200, {"received": True}, label, "accepted 200 (redelivery, already processed)", None
            self.seen[event["event_id"]] = True
            if len(self.seen) > REMEMBERED_EVENTS:
                del self.seen[next(iter(self.seen))]
        return 200, {"received": True}, label, "accepted 200", event

    # -- processing, after the answer ------------------------------------------------------------

    def work(self):
        while True:
            event = self.jobs.get()
            try:
                self.process(event)
            except Exception as error:  # a failure is logged, never fatal
                log(f"processing {event['event_id']} failed: {error}")

    def process(self, event):
        data = event.get("data") if isinstance(event.get("data"), dict) else {}
        name = event.get("event")
        if name in PAYOUT_EVENTS:
            kind, key, state = "payout", "payout_order_id", data.get("status")
        elif name in PAYMENT_EVENTS:
            kind, key, state = "order", "order_id", data.get("order_status")
        else:
            log(f"processing {name} {event['event_id']}: not an event this shop handles; ignored")
            return
        record_id = data.get(key)
        log(f"processing {name} {event['event_id']}: the event says {kind} {record_id} is {state}")
        if self.client is None:
            return
        if not isinstance(record_id, str) or not record_id:
            log(f"processing {event['event_id']}: no {key} to confirm")
            return
        self.confirm(kind, record_id, state)

    def confirm(self, kind, record_id, event_state):
        """P-HOOK-9: the status operation, not the event, decides."""
        if kind == "payout":
            name, path, state_key = "Payout Status", PATHS["payout_status"], "status"
            payload = {"svc_wallet_id": self.wallet, "debit_account_type": "svc_wallet", "payout_order_id": record_id}
        else:
            name, path, state_key = "Order Status", PATHS["order_status"], "order_status"
            payload = {"order_id": record_id}
        status, body, retry_after = self.client.send(path, payload)
        if status == 200:
            state = ((body or {}).get("data") or {}).get(state_key)
            verdict = " (confirms the event)" if state == event_state else f" (the event said {event_state}; acting on the status operation's answer)"
            log(f"{name} {record_id} → 200: {state}{verdict}")
        else:
            log(f"{name} {record_id} → {describe(status, body)}: not confirmed; not acting on the event")
        if status == 429:
            time.sleep(retry_after if retry_after is not None else 1)  # before the next request


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    receiver = None  # set by serve()

    def do_POST(self):
        try:
            raw = self.read_body()
        except ValueError:  # a chunk size that is not hexadecimal
            self.close_connection = True
            return self.answer(400, {"error": "unreadable body"}, "- -", "refused 400 (unreadable body)")
        if raw is None:
            self.close_connection = True
            return self.answer(413, {"error": "body over 1 MiB"}, "- -", "refused 413 (body over 1 MiB)")
        try:
            status, body, label, outcome, event = self.receiver.handle(self.headers, raw)
        except Refused as refused:
            return self.answer(refused.status, {"error": refused.reason}, "- -", f"refused {refused.status} ({refused.reason})")
        self.answer(status, body, label, outcome)
        if event is not None:
            self.receiver.jobs.put(event)  # processed only once the 200 is out

    def refuse_method(self):
        try:
            self.read_body()
        except ValueError:
            self.close_connection = True
        self.answer(405, {"error": "only POST is accepted"}, "- -", "refused 405 (only POST is accepted)", {"Allow": "POST"})

    do_GET = do_PUT = do_DELETE = do_PATCH = do_HEAD = do_OPTIONS = refuse_method

    def read_body(self):
        """The body (Content-Length or chunked), or None when it is larger than MAX_BODY_BYTES."""
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            chunks, size = [], 0
            while True:
                length = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if length == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass  # trailers
                    break
                size += length
                if size > MAX_BODY_BYTES:
                    return None
                chunks.append(self.rfile.read(length))
                self.rfile.readline()
            return b"".join(chunks)
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY_BYTES:
            return None
        return self.rfile.read(length)

    def answer(self, status, body, label, outcome, headers=None):
        log(f"{label}: {outcome}")
        text = json.dumps(body, separators=(",", ":")).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(text)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(text)
        self.wfile.flush()

    def log_message(self, format, *args):
        pass  # one line per delivery is enough, and http.server's would be a second one


def main(receiver_class=Receiver):
    secret = os.environ.get("SVC_SECRET_KEY")
    if not secret:
        print("missing SVC_SECRET_KEY: the merchant secret the webhooks are signed with", file=sys.stderr)
        sys.exit(2)
    port_text = os.environ.get("PORT") or "0"
    if not WHOLE_SECONDS.fullmatch(port_text) or int(port_text) > 65535:
        print(f"PORT must be a port number (0 for a free one), not {port_text!r}", file=sys.stderr)
        sys.exit(2)
    host = os.environ.get("HOST") or "127.0.0.1"

    client_mode = all(os.environ.get(name) for name in ("SVC_BASE_URL", "SVC_API_KEY", "SVC_WALLET_ID"))
    client = Client({name: os.environ[name] for name in ("SVC_BASE_URL", "SVC_API_KEY", "SVC_SECRET_KEY")}) if client_mode else None
    Handler.receiver = receiver_class(secret, client, os.environ.get("SVC_WALLET_ID"))

    server_class = ThreadingHTTPServer
    if ":" in host:
        server_class = type("ThreadingHTTPServer6", (ThreadingHTTPServer,), {"address_family": socket.AF_INET6})
    try:
        server = server_class((host, int(port_text)), Handler)
    except OSError as error:
        print(f"cannot listen: {error.strerror}", file=sys.stderr)
        sys.exit(1)

    def stop(signum, frame):
        sys.stdout.flush()
        os._exit(0)  # quietly, without waiting for deliveries in flight

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    shown_host = f"[{host}]" if ":" in host else host
    print(f"listening on http://{shown_host}:{server.server_address[1]}/webhooks", flush=True)
    log("client mode: each genuine new event is confirmed with its status operation" if client_mode
        else "receiver only (set SVC_BASE_URL, SVC_API_KEY and SVC_WALLET_ID for client mode)")
    server.serve_forever()


if __name__ == "__main__":
    main()
