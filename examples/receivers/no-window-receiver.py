#!/usr/bin/env python3
"""BROKEN ON PURPOSE: P-HOOK-7 (refuse a timestamp that is malformed or outside the ±300 s window).

A receiver whose author checked the signature and stopped there: X-TIMESTAMP must be present and
the HMAC over raw body + that header text must match, but the timestamp is never read as a time.
A delivery signed 900 s ago (a captured one, replayed) or one whose timestamp is "1764068400.5" is
acknowledged with 200 and processed, as long as it was signed. Everything else is good_receiver.py:
raw-body signature check, 400 for a body that is not JSON, 200 for a redelivery, client mode.
"""
import sys

sys.dont_write_bytecode = True  # keep examples/ free of __pycache__
from good_receiver import Receiver, Refused, main


class NoWindowReceiver(Receiver):
    def check_timestamp(self, timestamp):
        if timestamp is None:
            raise Refused(401, "X-TIMESTAMP missing")
        # the defect: no format check and no window; whatever was signed is fresh enough


if __name__ == "__main__":
    main(NoWindowReceiver)
