#!/usr/bin/env python3
"""Generate signer/vectors/signing-vectors.json, the published signing test vectors.

The vectors are meant for client authors in any language, so their expected values must not come
from this project's own TypeScript signer. Every case below therefore carries its canonical text
WRITTEN OUT BY HAND. This script never serializes a payload to produce a canonical text; it only

  * checks each hand-written canonical text (it parses it strictly and confirms it is compact, its
    keys are in UTF-16 code-unit order, its escapes and number spellings have the allowed forms, and
    it denotes the same JSON value as the payload text),
  * computes message = canonical + decimal timestamp (P-SIGN-2, P-SIGN-4) and
    signature = lowercase hex HMAC-SHA256(key = secret as UTF-8, msg = message as UTF-8)
    with Python's hmac module,
  * cross-checks every signature with `openssl dgst -sha256 -hmac` when openssl is on PATH, and
  * writes the data file.

Usage:
    python3 scripts/make-vectors.py           # (re)write the data file
    python3 scripts/make-vectors.py --check   # fail if the data file on disk is not up to date

Standard library only. Any failed check stops the script with a non-zero exit status.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "signer" / "vectors" / "signing-vectors.json"

# --------------------------------------------------------------------------------------------------
# Secrets and timestamps shared by several cases
# --------------------------------------------------------------------------------------------------

SECRET_A = "sk_test_7Qm2LxR9vKp4Wn8Zt3Hc6Yb1"
SECRET_B = "sk_test_Fx93kLq0Pz72MvN5wRt8Js4D"
# Non-ASCII secret: the key is its UTF-8 bytes.
SECRET_NON_ASCII = "sk_test_clé_secrète_Grüße_秘密"
# Exactly 64 bytes: the HMAC block size, so the key is used as is (padded with nothing).
SECRET_64 = "sk_test_0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRST"
# Longer than 64 bytes: HMAC first replaces the key by its SHA-256 digest.
SECRET_LONG = (
    "sk_test_LongSecret_0123456789abcdefghijklmnopqrstuvwxyz"
    "ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789_end"
)

TS_A = 1732147200  # 2024-11-21T00:00:00Z
TS_B = 1700000000  # 2023-11-14T22:13:20Z
TS_C = 1735689600  # 2025-01-01T00:00:00Z

# --------------------------------------------------------------------------------------------------
# The hand-written cases.
#
# payload   : JSON text as a client might hold it (any key order, any whitespace, any valid escapes);
#             "" means a request without a body (P-SIGN-4).
# canonical : the canonical text, typed by hand. Raw-string literals (r'...') are used wherever the
#             canonical text itself contains JSON backslash escapes, so what you read is what is
#             signed. Plain literals are used only where an invisible character must appear RAW in
#             the canonical text (DEL, U+2028, U+2029, private-use, combining marks); those are
#             spelled with Python escapes and commented.
# --------------------------------------------------------------------------------------------------

CASES: list[dict] = [
    # ---------------------------------------------------------------- key order
    dict(
        id="key-order-flat",
        description="Top-level keys given out of order are sorted.",
        tags=["key-order"],
        payload=r'{"b":2,"a":1,"c":3}',
        canonical=r'{"a":1,"b":2,"c":3}',
    ),
    dict(
        id="key-order-nested-every-depth",
        description="Keys are sorted at every nesting depth, not only at the top.",
        tags=["key-order", "nested"],
        payload=r'{"z":{"y":{"x":{"b":1,"a":2}},"c":0},"a":{"d":{"f":1,"e":2}}}',
        canonical=r'{"a":{"d":{"e":2,"f":1}},"z":{"c":0,"y":{"x":{"a":2,"b":1}}}}',
    ),
    dict(
        id="key-order-objects-inside-arrays",
        description="Objects that are array elements have their keys sorted; the array order is kept.",
        tags=["key-order", "array", "nested"],
        payload=r'{"items":[{"qty":2,"name":"pen","sku":"P-1"},{"sku":"B-2","name":"book","qty":1}],"count":2}',
        canonical=r'{"count":2,"items":[{"name":"pen","qty":2,"sku":"P-1"},{"name":"book","qty":1,"sku":"B-2"}]}',
    ),
    dict(
        id="key-order-uppercase-before-lowercase",
        description='Sorting is by code unit, not case-insensitive: "A" (0x41) < "B" < "_" (0x5F) < "a" (0x61) < "b".',
        tags=["key-order"],
        payload=r'{"a":1,"B":2,"b":3,"A":4,"_":5}',
        canonical=r'{"A":4,"B":2,"_":5,"a":1,"b":3}',
    ),
    dict(
        id="key-order-numeric-looking-keys",
        description='Digit keys sort as strings ("10" < "9"), not as numbers. '
        "JavaScript objects enumerate integer-like keys in numeric order, so a JS signer must sort explicitly.",
        tags=["key-order", "numeric-keys"],
        payload=r'{"9":"nine","10":"ten","1":"one","100":"hundred","2":"two"}',
        canonical=r'{"1":"one","10":"ten","100":"hundred","2":"two","9":"nine"}',
    ),
    dict(
        id="key-order-empty-and-space-keys",
        description='The empty key "" sorts first, then " " (0x20), then letters.',
        tags=["key-order"],
        payload=r'{"a":1,"":0," ":2}',
        canonical=r'{"":0," ":2,"a":1}',
    ),
    dict(
        id="key-order-prefix-keys",
        description='A key that is a prefix of another sorts first: "a" < "a0" < "ab" < "abc" < "b".',
        tags=["key-order"],
        payload=r'{"abc":3,"ab":2,"a":1,"b":4,"a0":5}',
        canonical=r'{"a":1,"a0":5,"ab":2,"abc":3,"b":4}',
    ),
    dict(
        id="key-order-utf16-not-code-point",
        description='UTF-16 code-unit order: "😀" (U+1F600, high surrogate 0xD83D) sorts BEFORE "ﬁ" (U+FB01), '
        "the opposite of code-point order. Languages that compare code points or UTF-8 bytes must compare UTF-16 code units instead.",
        tags=["key-order", "utf16-order", "unicode"],
        payload=r'{"ﬁ":"ligature","😀":"emoji","z":"ascii"}',
        canonical=r'{"z":"ascii","😀":"emoji","ﬁ":"ligature"}',
    ),
    dict(
        id="key-order-utf16-escaped-keys",
        description="Keys given as \\u escapes sort by their UTF-16 code units: U+1D11E (0xD834…) < U+1F600 (0xD83D…) "
        "< U+E000 < U+FB01 < U+FFFD. The canonical text writes them as raw UTF-8.",
        tags=["key-order", "utf16-order", "unicode"],
        payload=r'{"\ufffd":"replacement","\ud834\udd1e":"g-clef","\ufb01":"fi","\ud83d\ude00":"grin","\ue000":"private"}',
        # U+E000 (private use) and U+FFFD appear raw here; spelled with Python escapes for visibility.
        canonical='{"𝄞":"g-clef","😀":"grin","\ue000":"private","ﬁ":"fi","\ufffd":"replacement"}',
    ),
    dict(
        id="key-order-non-ascii-keys",
        description='Non-ASCII keys: "Z" < "e" < "z" < "ß" (U+00DF) < "é" (U+00E9) < "中" (U+4E2D) < "日" (U+65E5).',
        tags=["key-order", "unicode"],
        payload=r'{"é":1,"z":2,"ß":3,"中":4,"Z":5,"日":6,"e":7}',
        canonical=r'{"Z":5,"e":7,"z":2,"ß":3,"é":1,"中":4,"日":6}',
    ),
    dict(
        id="key-order-no-unicode-normalization",
        description='No Unicode normalization: "e" + U+0301 (decomposed) and U+00E9 (precomposed) are different keys; '
        "the decomposed one starts with 0x65 and sorts first. Both are written raw.",
        tags=["key-order", "unicode"],
        payload=r'{"\u00e9":"nfc","e\u0301":"nfd"}',
        # First key is "e" followed by a raw COMBINING ACUTE ACCENT (U+0301); second is raw U+00E9.
        canonical='{"e\u0301":"nfd","\u00e9":"nfc"}',
    ),
    dict(
        id="key-order-lone-surrogate-keys",
        description='Keys holding lone surrogates: "\\ud83d" is a prefix of "😀" (0xD83D 0xDE00) and sorts first; '
        '"\\ude00" (0xDE00) sorts last. Lone surrogates are written as lowercase \\u escapes, as JSON.stringify does.',
        tags=["key-order", "utf16-order", "lone-surrogate"],
        payload=r'{"\ud83d\ude00":"pair","\ud83d":"lone-high","\ude00":"lone-low"}',
        canonical=r'{"\ud83d":"lone-high","😀":"pair","\ude00":"lone-low"}',
    ),
    dict(
        id="key-order-keys-with-escapes",
        description="Keys are sorted by their decoded text, then escaped: newline (0x0A) < '\"' (0x22) < '/' (0x2F) < '\\' (0x5C).",
        tags=["key-order", "string-escape"],
        payload=r'{"a\"b":1,"a\\b":2,"a\nb":3,"a\/b":4}',
        canonical=r'{"a\nb":3,"a\"b":1,"a/b":4,"a\\b":2}',
    ),
    dict(
        id="key-order-proto-key",
        description='A key named "__proto__" is an ordinary key (JSON.parse makes it an own property) and must survive '
        "canonicalization with its value; \"_\" (0x5F) sorts before \"a\".",
        tags=["key-order", "js-proto-key"],
        payload=r'{"z":1,"__proto__":{"b":2,"a":1},"a":0,"constructor":"c"}',
        canonical=r'{"__proto__":{"a":1,"b":2},"a":0,"constructor":"c","z":1}',
    ),
    # ---------------------------------------------------------------- arrays and empties
    dict(
        id="array-order-kept",
        description="Array elements keep their order, whatever their types.",
        tags=["array"],
        payload=r'{"list":[3, 1, 2, "b", "a", null, true, false]}',
        canonical=r'{"list":[3,1,2,"b","a",null,true,false]}',
    ),
    dict(
        id="nested-arrays",
        description="Arrays inside arrays keep their order; an object deep inside is still sorted.",
        tags=["array", "nested", "key-order"],
        payload=r'{"m":[[3,2],[1,[0,{"b":1,"a":0}]]]}',
        canonical=r'{"m":[[3,2],[1,[0,{"a":0,"b":1}]]]}',
    ),
    dict(
        id="empty-object",
        description='A body that is the empty object "{}" signs "{}" — not the same as a request with no body.',
        tags=["empty"],
        payload=r'{ }',
        canonical=r'{}',
    ),
    dict(
        id="empty-array-top-level",
        description="A top-level empty array.",
        tags=["empty", "array", "top-level-array"],
        payload=r'[ ]',
        canonical=r'[]',
    ),
    dict(
        id="nested-empties",
        description="Empty objects and arrays at several depths stay as {} and [].",
        tags=["empty", "nested", "key-order"],
        payload=r'{"b":[],"a":{},"c":[{},[]],"d":{"f":[[]],"e":{}}}',
        canonical=r'{"a":{},"b":[],"c":[{},[]],"d":{"e":{},"f":[[]]}}',
    ),
    dict(
        id="top-level-array-of-objects",
        description="A top-level array: element order kept, each object's keys sorted.",
        tags=["top-level-array", "array", "key-order"],
        payload=r'[{"b":1,"a":2},{"d":[{"z":0,"y":1}],"c":null}]',
        canonical=r'[{"a":2,"b":1},{"c":null,"d":[{"y":1,"z":0}]}]',
    ),
    # ---------------------------------------------------------------- literals and whitespace
    dict(
        id="booleans-and-nulls-kept",
        description="true, false and null are written as such; keys with null values are kept, not dropped.",
        tags=["literals"],
        payload=r'{ "t": true, "f": false, "n": null, "arr": [null, true, false], "obj": {"n": null} }',
        canonical=r'{"arr":[null,true,false],"f":false,"n":null,"obj":{"n":null},"t":true}',
    ),
    dict(
        id="whitespace-pretty-printed",
        description="A pretty-printed payload: all whitespace outside strings is dropped.",
        tags=["whitespace", "key-order"],
        payload=r'''{
    "name": "Widget",
    "price": 10,
    "tags": [
        "a",
        "b"
    ],
    "dims": {
        "w": 1,
        "h": 2
    }
}''',
        canonical=r'{"dims":{"h":2,"w":1},"name":"Widget","price":10,"tags":["a","b"]}',
    ),
    dict(
        id="whitespace-crlf-and-tabs",
        description="CR LF line ends, tabs and spaces around ':' and ',' are all insignificant outside strings.",
        tags=["whitespace"],
        # Real CR, LF and TAB characters between tokens (Python escapes in a plain literal).
        payload='{\r\n\t"b" : [ 1 , 2 ] ,\r\n\t"a" :\t"x y"\r\n}\r\n',
        canonical=r'{"a":"x y","b":[1,2]}',
    ),
    dict(
        id="whitespace-inside-strings-kept",
        description="Whitespace inside strings is kept exactly, including leading, trailing and doubled spaces.",
        tags=["whitespace", "string-escape"],
        payload=r'''{
  "note" : "  two  spaces\tand a tab  ",
  "empty" : "",
  "space" : " "
}''',
        canonical=r'{"empty":"","note":"  two  spaces\tand a tab  ","space":" "}',
    ),
    # ---------------------------------------------------------------- numbers
    dict(
        id="number-trailing-zeros",
        description="Trailing fractional zeros are dropped and integral values lose the fraction: "
        "100.50 -> 100.5, 2.50 -> 2.5, -12.340 -> -12.34, 1.0 -> 1.",
        tags=["js-number-format"],
        payload=r'{"a":100.50,"b":2.50,"c":-12.340,"d":1.0,"e":100}',
        canonical=r'{"a":100.5,"b":2.5,"c":-12.34,"d":1,"e":100}',
    ),
    dict(
        id="number-large-exponent",
        description="Magnitudes >= 1e21 use exponent form with an explicit '+'; below that, plain digits: "
        "1e21 and 1E21 -> 1e+21, 1e20 -> 100000000000000000000, 1.5e300 -> 1.5e+300, 1e+2 -> 100.",
        tags=["js-number-format"],
        payload=r'{"a":1e21,"b":1E21,"c":1e20,"d":1.5e300,"e":1e+2}',
        canonical=r'{"a":1e+21,"b":1e+21,"c":100000000000000000000,"d":1.5e+300,"e":100}',
    ),
    dict(
        id="number-small-exponent",
        description="Magnitudes below 1e-6 use exponent form, from 1e-6 up plain decimals: 1e-7 -> 1e-7, "
        "0.000001 stays, 123e-20 -> 1.23e-18, 0.0000001 -> 1e-7, 12e-1 -> 1.2.",
        tags=["js-number-format"],
        payload=r'{"a":1e-7,"b":0.000001,"c":123e-20,"d":1E-7,"e":0.0000001,"f":12e-1,"g":-1e-7}',
        canonical=r'{"a":1e-7,"b":0.000001,"c":1.23e-18,"d":1e-7,"e":1e-7,"f":1.2,"g":-1e-7}',
    ),
    dict(
        id="number-negative-zero",
        description="Negative zero in any spelling is written 0.",
        tags=["js-number-format"],
        payload=r'{"a":-0,"b":-0.0,"c":0,"d":0.0,"e":-0e5}',
        canonical=r'{"a":0,"b":0,"c":0,"d":0,"e":0}',
    ),
    dict(
        id="number-decimals-unchanged",
        description="Decimals that are already the shortest round-trip form are unchanged (0.1, 1499.99, 0.30000000000000004).",
        tags=["js-number-format"],
        payload=r'{"a":0.1,"b":1499.99,"c":0.30000000000000004,"d":-0.5,"e":3.14159}',
        canonical=r'{"a":0.1,"b":1499.99,"c":0.30000000000000004,"d":-0.5,"e":3.14159}',
    ),
    dict(
        id="number-beyond-safe-integer",
        description="Integers beyond 2^53 lose precision because JSON numbers are IEEE-754 doubles in JavaScript: "
        "9007199254740993 -> 9007199254740992, 12345678901234567890 -> 12345678901234567000. "
        "Clients should send such identifiers as strings.",
        tags=["js-number-format", "precision-loss", "key-order"],
        payload=r'{"order_id":9007199254740993,"max_safe":9007199254740991,"big":12345678901234567890}',
        canonical=r'{"big":12345678901234567000,"max_safe":9007199254740991,"order_id":9007199254740992}',
    ),
    dict(
        id="number-extremes",
        description="Smallest subnormal, smallest normal and largest finite doubles.",
        tags=["js-number-format", "key-order"],
        payload=r'{"min":5e-324,"max":1.7976931348623157e308,"neg_max":-1.7976931348623157e308,"min_normal":2.2250738585072014e-308}',
        canonical=r'{"max":1.7976931348623157e+308,"min":5e-324,"min_normal":2.2250738585072014e-308,"neg_max":-1.7976931348623157e+308}',
    ),
    dict(
        id="number-format-boundaries",
        description="Either side of the plain/exponent boundaries: 999999999999999900000 stays plain, 1e21 is exponent; "
        "0.000001 stays plain, 0.00000099 -> 9.9e-7.",
        tags=["js-number-format", "key-order"],
        payload=r'{"below":999999999999999900000,"at":1e21,"tiny_fixed":0.000001,"tiny_exp":0.00000099}',
        canonical=r'{"at":1e+21,"below":999999999999999900000,"tiny_exp":9.9e-7,"tiny_fixed":0.000001}',
    ),
    dict(
        id="number-array-top-level",
        description="Numbers in a top-level array are rewritten the same way: 1E3 -> 1000.",
        tags=["js-number-format", "top-level-array", "array"],
        payload=r'[100.50, 2.50, -12.340, 1E3, 0]',
        canonical=r'[100.5,2.5,-12.34,1000,0]',
    ),
    # ---------------------------------------------------------------- strings
    dict(
        id="string-slash-not-escaped",
        description='"/" is never escaped: URLs with paths and query strings are written as is.',
        tags=["string-escape", "slash"],
        payload=r'{"return_url":"https://shop.example.com/return?order=A-1&lang=en","path":"/a/b/c/"}',
        canonical=r'{"path":"/a/b/c/","return_url":"https://shop.example.com/return?order=A-1&lang=en"}',
    ),
    dict(
        id="string-escaped-slash-input",
        description='A payload holding "\\/" escapes: the canonical text writes a plain "/".',
        tags=["string-escape", "slash"],
        payload=r'{"u":"https:\/\/example.com\/x?y=1"}',
        canonical=r'{"u":"https://example.com/x?y=1"}',
    ),
    dict(
        id="string-non-ascii-raw",
        description="Non-ASCII text is written as raw UTF-8 (Latin, CJK, emoji, right-to-left Arabic).",
        tags=["unicode", "key-order"],
        payload=r'{"name":"José Müller","nick":"Zoë","city":"東京","emoji":"🎉👍","ar":"مرحبا بالعالم"}',
        canonical=r'{"ar":"مرحبا بالعالم","city":"東京","emoji":"🎉👍","name":"José Müller","nick":"Zoë"}',
    ),
    dict(
        id="string-non-ascii-from-escapes",
        description="\\u escapes for non-ASCII characters (and a surrogate pair) in the payload become raw UTF-8.",
        tags=["unicode", "string-escape"],
        payload=r'{"name":"Jos\u00e9 M\u00FCller","smile":"\ud83d\ude00","yen":"\u00a5"}',
        canonical=r'{"name":"José Müller","smile":"😀","yen":"¥"}',
    ),
    dict(
        id="string-quote-and-backslash",
        description='Double quote and backslash are escaped as \\" and \\\\.',
        tags=["string-escape"],
        payload=r'{"q":"say \"hi\"","bs":"C:\\path\\to","mix":"\\\""}',
        canonical=r'{"bs":"C:\\path\\to","mix":"\\\"","q":"say \"hi\""}',
    ),
    dict(
        id="string-short-escapes",
        description="Backspace, form feed, newline, carriage return and tab use the short escapes \\b \\f \\n \\r \\t.",
        tags=["string-escape", "control-chars"],
        payload=r'{"s":"a\bb\fc\nd\re\tf"}',
        canonical=r'{"s":"a\bb\fc\nd\re\tf"}',
    ),
    dict(
        id="string-short-escapes-from-unicode",
        description="The same five characters given as \\u escapes are written with the short escapes.",
        tags=["string-escape", "control-chars"],
        payload=r'{"s":"\u0008\u000c\u000A\u000D\u0009"}',
        canonical=r'{"s":"\b\f\n\r\t"}',
    ),
    dict(
        id="string-other-c0-controls",
        description="Other C0 controls are written as \\u00XX with LOWERCASE hex (vertical tab is \\u000b, not \\v).",
        tags=["string-escape", "control-chars"],
        payload=r'{"s":"\u0000\u0001\u001F\u001e\u000B\u0007\u001B"}',
        canonical=r'{"s":"\u0000\u0001\u001f\u001e\u000b\u0007\u001b"}',
    ),
    dict(
        id="string-del-and-line-separators-raw",
        description="DEL (U+007F), LINE SEPARATOR (U+2028) and PARAGRAPH SEPARATOR (U+2029) are NOT escaped; "
        "they are written raw, whether the payload held them escaped or raw.",
        tags=["string-escape", "unicode", "control-chars"],
        # "s" holds them as JSON escapes; "raw" holds the raw characters (Python escapes in a plain literal).
        payload=r'{"s":"\u007f|\u2028|\u2029","raw":"' + "\x7f\u2028\u2029" + r'"}',
        # Canonical: all six characters raw (plain literal, Python escapes).
        canonical='{"raw":"\x7f\u2028\u2029","s":"\x7f|\u2028|\u2029"}',
    ),
    dict(
        id="string-html-characters-raw",
        description="&, <, > and ' are written raw (no HTML-safe escaping), also when the payload held them as \\u escapes.",
        tags=["string-escape"],
        payload=r'{"a":"<script>alert(\u0027x\u0027)</script>","b":"\u003c\u0026\u003e","c":"a=1&b=2 > 0"}',
        canonical=r'{"a":"<script>alert(' + "'x'" + r')</script>","b":"<&>","c":"a=1&b=2 > 0"}',
    ),
    dict(
        id="string-lone-surrogates",
        description="Lone (unpaired) surrogates are written as lowercase \\udXXX escapes, as JSON.stringify does since ES2019; "
        "a valid pair is written raw. The signed message is therefore always valid UTF-8.",
        tags=["lone-surrogate", "string-escape", "unicode"],
        payload=r'{"high":"\uD800","low":"\uDFFF","mixed":"a\ud83dz","reversed":"\ude00\ud83d","pair":"\uD83D\uDE00"}',
        canonical=r'{"high":"\ud800","low":"\udfff","mixed":"a\ud83dz","pair":"😀","reversed":"\ude00\ud83d"}',
    ),
    # ---------------------------------------------------------------- empty body (P-SIGN-4)
    dict(
        id="empty-body",
        description="A request with no body (P-SIGN-4): canonical text is empty, message is the timestamp alone. "
        "Compare with empty-object, same secret and timestamp.",
        tags=["empty-body"],
        payload="",
        canonical="",
    ),
    dict(
        id="empty-body-other-secret",
        description="No body, another secret and timestamp.",
        tags=["empty-body", "secret", "timestamp"],
        payload="",
        canonical="",
        secret=SECRET_B,
        timestamp=TS_B,
    ),
    # ---------------------------------------------------------------- secrets and timestamps
    dict(
        id="signing-baseline",
        description="Baseline for the secret-* and timestamp-* cases: the default secret and timestamp.",
        tags=["secret", "timestamp"],
        payload=r'{"order_id":"A-1"}',
        canonical=r'{"order_id":"A-1"}',
    ),
    dict(
        id="secret-non-ascii",
        description="A secret with non-ASCII characters: the HMAC key is the secret's UTF-8 bytes.",
        tags=["secret", "unicode"],
        payload=r'{"order_id":"A-1"}',
        canonical=r'{"order_id":"A-1"}',
        secret=SECRET_NON_ASCII,
    ),
    dict(
        id="secret-exactly-64-bytes",
        description="A 64-byte secret (the SHA-256 block size): used directly as the HMAC key.",
        tags=["secret"],
        payload=r'{"order_id":"A-1"}',
        canonical=r'{"order_id":"A-1"}',
        secret=SECRET_64,
    ),
    dict(
        id="secret-longer-than-block",
        description="A secret longer than 64 bytes: standard HMAC hashes it with SHA-256 first.",
        tags=["secret"],
        payload=r'{"order_id":"A-1"}',
        canonical=r'{"order_id":"A-1"}',
        secret=SECRET_LONG,
    ),
    dict(
        id="timestamp-next-second",
        description="Same payload and secret as signing-baseline, one second later: a different signature.",
        tags=["timestamp"],
        payload=r'{"order_id":"A-1"}',
        canonical=r'{"order_id":"A-1"}',
        timestamp=TS_A + 1,
    ),
    dict(
        id="timestamp-nine-digits",
        description="A nine-digit timestamp: its decimal text is appended as is, with no padding.",
        tags=["timestamp"],
        payload=r'{"order_id":"A-1"}',
        canonical=r'{"order_id":"A-1"}',
        timestamp=999999999,
    ),
    # ---------------------------------------------------------------- realistic requests
    dict(
        id="create-order-inr-full",
        description="Create Order, INR, integer order_id, every optional field present, pretty-printed in natural field order.",
        tags=["realistic", "create-order", "key-order", "whitespace", "slash"],
        payload=r'''{
  "order_id": 100234,
  "order_amount": 1499.99,
  "order_currency": "INR",
  "order_note": "Diwali gift hamper",
  "service_type": "ecommerce",
  "customer": {
    "name": "Priya Sharma",
    "email": "priya.sharma@example.in",
    "phone": "+919876543210",
    "address": {
      "line1": "42 MG Road",
      "line2": "Near City Mall",
      "city": "Bengaluru",
      "state": "Karnataka",
      "country": "IN",
      "postal_code": "560001"
    }
  },
  "return_url": "https://shop.example.com/return?order=100234&lang=en"
}''',
        canonical=r'{"customer":{"address":{"city":"Bengaluru","country":"IN","line1":"42 MG Road","line2":"Near City Mall","postal_code":"560001","state":"Karnataka"},"email":"priya.sharma@example.in","name":"Priya Sharma","phone":"+919876543210"},"order_amount":1499.99,"order_currency":"INR","order_id":100234,"order_note":"Diwali gift hamper","return_url":"https://shop.example.com/return?order=100234&lang=en","service_type":"ecommerce"}',
        timestamp=TS_C,
    ),
    dict(
        id="create-order-usd-string-id",
        description="Create Order, USD, string order_id, no order_note and no address line2, non-ASCII customer name, "
        "amount 100.50 -> 100.5.",
        tags=["realistic", "create-order", "key-order", "unicode", "js-number-format", "slash"],
        payload=r'{"return_url":"https://merchant.example.com/checkout/complete?order=ORD-2024-0001&src=web","order_currency":"USD","order_amount":100.50,"service_type":"digital_goods","order_id":"ORD-2024-0001","customer":{"phone":"+14155550123","name":"José Müller","email":"jose.muller@example.com","address":{"postal_code":"94105","country":"US","state":"CA","city":"San Francisco","line1":"500 Howard St"}}}',
        canonical=r'{"customer":{"address":{"city":"San Francisco","country":"US","line1":"500 Howard St","postal_code":"94105","state":"CA"},"email":"jose.muller@example.com","name":"José Müller","phone":"+14155550123"},"order_amount":100.5,"order_currency":"USD","order_id":"ORD-2024-0001","return_url":"https://merchant.example.com/checkout/complete?order=ORD-2024-0001&src=web","service_type":"digital_goods"}',
    ),
    dict(
        id="create-order-eur-special-characters",
        description="Create Order, EUR, a note with <, >, & and quotes, German address with ß, amount 2.50 -> 2.5.",
        tags=["realistic", "create-order", "key-order", "unicode", "string-escape", "js-number-format", "whitespace"],
        payload=r'''{
  "order_id": "BER-7781",
  "order_amount": 2.50,
  "order_currency": "EUR",
  "order_note": "Geschenk <bitte> einpacken & \"Danke\" sagen",
  "service_type": "retail",
  "customer": {
    "name": "Zoë Ångström",
    "email": "zoe@example.de",
    "phone": "+4930123456",
    "address": {
      "line1": "Große Straße 5",
      "line2": "Hinterhaus, 2. OG",
      "city": "Berlin",
      "state": "BE",
      "country": "DE",
      "postal_code": "10115"
    }
  },
  "return_url": "https://shop.example.de/danke/?bestellung=BER-7781&sprache=de"
}''',
        canonical=r'{"customer":{"address":{"city":"Berlin","country":"DE","line1":"Große Straße 5","line2":"Hinterhaus, 2. OG","postal_code":"10115","state":"BE"},"email":"zoe@example.de","name":"Zoë Ångström","phone":"+4930123456"},"order_amount":2.5,"order_currency":"EUR","order_id":"BER-7781","order_note":"Geschenk <bitte> einpacken & \"Danke\" sagen","return_url":"https://shop.example.de/danke/?bestellung=BER-7781&sprache=de","service_type":"retail"}',
        secret=SECRET_B,
    ),
    dict(
        id="create-order-jpy-cjk",
        description="Create Order, JPY, Japanese name and address, emoji in the note.",
        tags=["realistic", "create-order", "key-order", "unicode"],
        payload=r'{"order_id":5501,"order_amount":12000,"order_currency":"JPY","order_note":"ありがとう 🎁","service_type":"ecommerce","customer":{"name":"山田 太郎","email":"taro.yamada@example.jp","phone":"+81312345678","address":{"line1":"千代田区丸の内1-1","city":"東京","state":"東京都","country":"JP","postal_code":"100-0001"}},"return_url":"https://shop.example.jp/return?order=5501"}',
        canonical=r'{"customer":{"address":{"city":"東京","country":"JP","line1":"千代田区丸の内1-1","postal_code":"100-0001","state":"東京都"},"email":"taro.yamada@example.jp","name":"山田 太郎","phone":"+81312345678"},"order_amount":12000,"order_currency":"JPY","order_id":5501,"order_note":"ありがとう 🎁","return_url":"https://shop.example.jp/return?order=5501","service_type":"ecommerce"}',
        timestamp=TS_B,
    ),
    dict(
        id="create-order-aed-arabic",
        description="Create Order, AED, right-to-left Arabic name, a note given as \\u escapes, amount 250.00 -> 250.",
        tags=["realistic", "create-order", "key-order", "unicode", "js-number-format", "slash"],
        payload=r'{"service_type":"travel","order_id":77001,"order_currency":"AED","order_amount":250.00,"order_note":"\u0634\u0643\u0631\u0627","return_url":"https://travel.example.ae/booking/return?ref=77001&lang=ar","customer":{"email":"m.alali@example.ae","name":"محمد العلي","phone":"+971501234567","address":{"country":"AE","city":"Dubai","state":"Dubai","line1":"Sheikh Zayed Road, Tower 3","postal_code":"00000"}}}',
        canonical=r'{"customer":{"address":{"city":"Dubai","country":"AE","line1":"Sheikh Zayed Road, Tower 3","postal_code":"00000","state":"Dubai"},"email":"m.alali@example.ae","name":"محمد العلي","phone":"+971501234567"},"order_amount":250,"order_currency":"AED","order_id":77001,"order_note":"شكرا","return_url":"https://travel.example.ae/booking/return?ref=77001&lang=ar","service_type":"travel"}',
    ),
    dict(
        id="create-order-gbp-escaped-url",
        description="Create Order, GBP, return_url given with \\/ escapes (written as plain /), amount 0.1.",
        tags=["realistic", "create-order", "key-order", "slash", "string-escape"],
        payload=r'{"order_id":880,"order_amount":0.1,"order_currency":"GBP","service_type":"subscription","customer":{"name":"Oliver Smith","email":"oliver@example.co.uk","phone":"+447700900123","address":{"line1":"10 Downing St","line2":"Flat 1\/2","city":"London","state":"England","country":"GB","postal_code":"SW1A 2AA"}},"return_url":"https:\/\/subs.example.co.uk\/return\/?plan=basic&order=880"}',
        canonical=r'{"customer":{"address":{"city":"London","country":"GB","line1":"10 Downing St","line2":"Flat 1/2","postal_code":"SW1A 2AA","state":"England"},"email":"oliver@example.co.uk","name":"Oliver Smith","phone":"+447700900123"},"order_amount":0.1,"order_currency":"GBP","order_id":880,"return_url":"https://subs.example.co.uk/return/?plan=basic&order=880","service_type":"subscription"}',
        timestamp=TS_C,
    ),
    dict(
        id="create-order-quickstart-no-address",
        description="Create Order shaped like the interface's quick-start sample (customer without address). "
        "Signing does not validate fields; the canonical rules are the same.",
        tags=["realistic", "create-order", "key-order"],
        payload=r'{"order_id":"QS-1","order_amount":10,"order_currency":"INR","service_type":"ecommerce","customer":{"name":"Test User","email":"test@example.com","phone":"9999999999"},"return_url":"https://example.com/return"}',
        canonical=r'{"customer":{"email":"test@example.com","name":"Test User","phone":"9999999999"},"order_amount":10,"order_currency":"INR","order_id":"QS-1","return_url":"https://example.com/return","service_type":"ecommerce"}',
    ),
    dict(
        id="order-status-string-id",
        description="Order Status request by string order_id.",
        tags=["realistic", "order-status"],
        payload=r'{"order_id": "ORD-2024-0001"}',
        canonical=r'{"order_id":"ORD-2024-0001"}',
    ),
    dict(
        id="order-status-integer-id",
        description="Order Status request by integer order_id.",
        tags=["realistic", "order-status"],
        payload=r'{"order_id":100234}',
        canonical=r'{"order_id":100234}',
        timestamp=TS_C,
    ),
    dict(
        id="payout-status-string-id",
        description="Payout Status request in the sample's field order.",
        tags=["realistic", "payout-status", "key-order"],
        payload=r'{"svc_wallet_id":"wal_test_8f3a2c91","debit_account_type":"svc_wallet","payout_order_id":"PO-20241121-0007"}',
        canonical=r'{"debit_account_type":"svc_wallet","payout_order_id":"PO-20241121-0007","svc_wallet_id":"wal_test_8f3a2c91"}',
    ),
    dict(
        id="payout-status-integer-id",
        description="Payout Status request with an integer payout_order_id, pretty-printed.",
        tags=["realistic", "payout-status", "key-order", "whitespace"],
        payload=r'''{
  "svc_wallet_id": "wal_test_8f3a2c91",
  "debit_account_type": "svc_wallet",
  "payout_order_id": 700012
}''',
        canonical=r'{"debit_account_type":"svc_wallet","payout_order_id":700012,"svc_wallet_id":"wal_test_8f3a2c91"}',
        secret=SECRET_B,
        timestamp=TS_B,
    ),
    dict(
        id="transaction-initiation-imps",
        description="Transaction Initiation (payout) by IMPS with a nested beneficiary; amount 2500.00 -> 2500.",
        tags=["realistic", "transaction-initiation", "key-order", "nested", "js-number-format"],
        payload=r'{"svc_wallet_id":"wal_test_8f3a2c91","debit_account_type":"svc_wallet","payout_order_id":"PO-20241121-0008","amount":2500.00,"currency":"INR","transfer_mode":"imps","beneficiary":{"name":"Rahul Verma","account_number":"50100123456789","ifsc":"HDFC0001234"}}',
        canonical=r'{"amount":2500,"beneficiary":{"account_number":"50100123456789","ifsc":"HDFC0001234","name":"Rahul Verma"},"currency":"INR","debit_account_type":"svc_wallet","payout_order_id":"PO-20241121-0008","svc_wallet_id":"wal_test_8f3a2c91","transfer_mode":"imps"}',
    ),
    dict(
        id="transaction-initiation-upi",
        description="Transaction Initiation by UPI, pretty-printed; amount 0.50 -> 0.5, non-ASCII beneficiary name.",
        tags=["realistic", "transaction-initiation", "key-order", "nested", "js-number-format", "whitespace", "unicode"],
        payload=r'''{
  "svc_wallet_id": "wal_test_8f3a2c91",
  "debit_account_type": "svc_wallet",
  "payout_order_id": 900001,
  "amount": 0.50,
  "currency": "INR",
  "transfer_mode": "upi",
  "beneficiary": {
    "name": "Ananya Rao — अनन्या",
    "account_number": "ananya@okbank",
    "ifsc": ""
  }
}''',
        canonical=r'{"amount":0.5,"beneficiary":{"account_number":"ananya@okbank","ifsc":"","name":"Ananya Rao — अनन्या"},"currency":"INR","debit_account_type":"svc_wallet","payout_order_id":900001,"svc_wallet_id":"wal_test_8f3a2c91","transfer_mode":"upi"}',
        secret=SECRET_B,
        timestamp=TS_C,
    ),
    dict(
        id="balance-inquiry",
        description="Balance Inquiry request.",
        tags=["realistic", "balance-inquiry"],
        payload=r'{ "svc_wallet_id" : "wal_test_8f3a2c91" }',
        canonical=r'{"svc_wallet_id":"wal_test_8f3a2c91"}',
        timestamp=TS_B,
    ),
]

DEFAULT_SECRET = SECRET_A
DEFAULT_TIMESTAMP = TS_A

# --------------------------------------------------------------------------------------------------
# Checks of the hand-written canonical texts (parsing and validating only; nothing here writes JSON)
# --------------------------------------------------------------------------------------------------


class CanonicalError(Exception):
    pass


_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_SHORT_ESCAPES = {'"': '"', "\\": "\\", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_SHORT_FOR_CODE = {0x08, 0x09, 0x0A, 0x0C, 0x0D}


def utf16_units(s: str) -> bytes:
    """Big-endian UTF-16 bytes: comparing these compares UTF-16 code units in order."""
    return s.encode("utf-16-be", "surrogatepass")


def significant_digits(text: str) -> str:
    mantissa = re.split(r"[eE]", text.lstrip("-"))[0].replace(".", "")
    return mantissa.strip("0") or "0"


class StrictCanonicalParser:
    """Parses a text that claims to be canonical and rejects anything that is not canonical form."""

    def __init__(self, text: str):
        self.t = text
        self.i = 0

    def fail(self, why: str) -> None:
        raise CanonicalError(f"{why} at offset {self.i}: ...{self.t[max(0, self.i - 20):self.i + 20]!r}...")

    def parse(self):
        value = self.value()
        if self.i != len(self.t):
            self.fail("trailing text")
        return value

    def value(self):
        if self.i >= len(self.t):
            self.fail("unexpected end")
        c = self.t[self.i]
        if c == "{":
            return self.obj()
        if c == "[":
            return self.arr()
        if c == '"':
            return self.string()
        for word, val in (("true", True), ("false", False), ("null", None)):
            if self.t.startswith(word, self.i):
                self.i += len(word)
                return val
        if c == "-" or c.isdigit():
            return self.number()
        self.fail(f"unexpected character {c!r} (whitespace is not allowed outside strings)")

    def obj(self):
        self.i += 1
        out: dict = {}
        if self.t.startswith("}", self.i):
            self.i += 1
            return out
        prev = None
        while True:
            if not self.t.startswith('"', self.i):
                self.fail("expected a key")
            key = self.string()
            if prev is not None and not utf16_units(prev) < utf16_units(key):
                self.fail(f"key {key!r} is not after {prev!r} in UTF-16 code-unit order")
            prev = key
            if not self.t.startswith(":", self.i):
                self.fail("expected ':'")
            self.i += 1
            out[key] = self.value()
            if self.t.startswith(",", self.i):
                self.i += 1
                continue
            if self.t.startswith("}", self.i):
                self.i += 1
                return out
            self.fail("expected ',' or '}'")

    def arr(self):
        self.i += 1
        out: list = []
        if self.t.startswith("]", self.i):
            self.i += 1
            return out
        while True:
            out.append(self.value())
            if self.t.startswith(",", self.i):
                self.i += 1
                continue
            if self.t.startswith("]", self.i):
                self.i += 1
                return out
            self.fail("expected ',' or ']'")

    def string(self) -> str:
        self.i += 1
        chars: list[str] = []
        while True:
            if self.i >= len(self.t):
                self.fail("unterminated string")
            c = self.t[self.i]
            code = ord(c)
            if c == '"':
                self.i += 1
                return "".join(chars)
            if code < 0x20:
                self.fail(f"raw control character U+{code:04X} must be escaped")
            if 0xD800 <= code <= 0xDFFF:
                self.fail("raw surrogate in the canonical text (cannot be UTF-8)")
            if c != "\\":
                chars.append(c)
                self.i += 1
                continue
            esc = self.t[self.i + 1 : self.i + 2]
            if esc in _SHORT_ESCAPES:
                chars.append(_SHORT_ESCAPES[esc])
                self.i += 2
                continue
            if esc != "u":
                self.fail(f"escape \\{esc} is not one JSON.stringify writes")
            hex4 = self.t[self.i + 2 : self.i + 6]
            if not re.fullmatch(r"[0-9a-f]{4}", hex4):
                self.fail(f"\\u{hex4}: must be four LOWERCASE hex digits")
            unit = int(hex4, 16)
            if unit < 0x20:
                if unit in _SHORT_FOR_CODE:
                    self.fail(f"\\u{hex4} must use its short escape")
            elif 0xD800 <= unit <= 0xDBFF:
                nxt = self.t[self.i + 6 : self.i + 12]
                if re.fullmatch(r"\\u[dD][c-fC-F][0-9a-fA-F]{2}", nxt):
                    self.fail("escaped surrogate PAIR: a valid pair must be written raw")
            elif 0xDC00 <= unit <= 0xDFFF:
                if chars and 0xD800 <= ord(chars[-1]) <= 0xDBFF:
                    self.fail("escaped low surrogate completing a pair")
            else:
                self.fail(f"\\u{hex4} must be written raw (only C0 controls and lone surrogates are escaped)")
            chars.append(chr(unit))
            self.i += 6

    def number(self) -> float:
        m = _NUMBER.match(self.t, self.i)
        if not m:
            self.fail("bad number")
        tok = m.group(0)
        self.i = m.end()
        val = float(tok)
        mag = abs(val)
        if tok.startswith("-0") and val == 0:
            self.fail("negative zero must be written 0")
        if "E" in tok:
            self.fail("exponent marker must be lowercase e")
        if "e" in tok:
            if not re.fullmatch(r"-?[1-9](?:\.[0-9]*[1-9])?e[+-][1-9][0-9]*", tok):
                self.fail(f"{tok}: exponent form must be d[.ddd]e+N / d[.ddd]e-N with no redundant zeros")
            if 1e-6 <= mag < 1e21:
                self.fail(f"{tok}: magnitudes in [1e-6, 1e21) are written without exponent")
        else:
            if re.search(r"\.[0-9]*0$", tok):
                self.fail(f"{tok}: trailing zero in the fraction")
            if mag != 0 and not (1e-6 <= mag < 1e21):
                self.fail(f"{tok}: this magnitude needs exponent form")
        # Shortest round-trip digits: Python's repr of a float is also the shortest round-tripping form.
        if significant_digits(tok) != significant_digits(repr(val)):
            self.fail(f"{tok}: not the shortest digits that round-trip ({repr(val)})")
        return val


def no_constants(name: str):
    raise ValueError(f"{name} is not JSON")


def load_payload(text: str):
    """The payload's value; every number as a double, the way JavaScript's JSON.parse holds it."""
    return json.loads(text, parse_int=float, parse_float=float, parse_constant=no_constants)


def same_value(a, b, path: str = "$") -> None:
    if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None:
        if not (type(a) is type(b) and a == b):
            raise CanonicalError(f"{path}: {a!r} != {b!r}")
    elif isinstance(a, float) and isinstance(b, float):
        if a != b:
            raise CanonicalError(f"{path}: number {a!r} != {b!r}")
    elif isinstance(a, str) and isinstance(b, str):
        if a != b:
            raise CanonicalError(f"{path}: string {a!r} != {b!r}")
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            raise CanonicalError(f"{path}: array lengths {len(a)} != {len(b)}")
        for n, (x, y) in enumerate(zip(a, b)):
            same_value(x, y, f"{path}[{n}]")
    elif isinstance(a, dict) and isinstance(b, dict):
        if set(a) != set(b):
            raise CanonicalError(f"{path}: keys {sorted(a)} != {sorted(b)}")
        for k in a:
            same_value(a[k], b[k], f"{path}.{k}")
    else:
        raise CanonicalError(f"{path}: type {type(a).__name__} != {type(b).__name__}")


def check_case(case: dict) -> None:
    payload, canonical = case["payload"], case["canonical"]
    if payload == "":
        if canonical != "":
            raise CanonicalError("empty payload (no body) must have an empty canonical text")
        return
    if not isinstance(load_payload(payload), (dict, list)):
        raise CanonicalError("payloads are objects or arrays")
    same_value(load_payload(payload), StrictCanonicalParser(canonical).parse())


# --------------------------------------------------------------------------------------------------
# Signing
# --------------------------------------------------------------------------------------------------


def hmac_hex(secret: str, message: str) -> str:
    return hmac.new(secret.encode("utf-8"), message.encode("utf-8"), hashlib.sha256).hexdigest()


def openssl_hmac_hex(openssl: str, secret: str, message: str) -> str:
    done = subprocess.run(
        [openssl, "dgst", "-sha256", "-hmac", secret],
        input=message.encode("utf-8"),
        capture_output=True,
        check=True,
    )
    # Output looks like "HMAC-SHA2-256(stdin)= <hex>" (the label varies between versions).
    return done.stdout.decode("ascii").strip().rsplit("=", 1)[-1].strip().lower()


# --------------------------------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------------------------------

DESCRIPTION = (
    "Signing test vectors for the svc-conformance profile: canonical JSON text (keys sorted "
    "recursively by UTF-16 code units, compact, '/' not escaped, non-ASCII as raw UTF-8, "
    "JSON.stringify escapes and number spelling) and HMAC-SHA256 request signatures. The canonical "
    "texts were written by hand and the signatures computed independently of the project's signer "
    "(Python hmac, cross-checked with openssl)."
)

HOW_TO_USE = (
    "For each vector: parse `payload` with your JSON parser (an empty string means a request with no "
    "body: sign the empty string), canonicalize the value and compare with `canonical` byte for byte "
    "(UTF-8); then sign with `secret` and `timestamp` and compare with `message` (canonical + decimal "
    "timestamp) and `signature` (lowercase hex HMAC-SHA256, key = secret as UTF-8, message as UTF-8). "
    "Tags such as js-number-format, precision-loss and lone-surrogate mark behaviour that follows "
    "JavaScript's JSON.parse/JSON.stringify: numbers are IEEE-754 doubles, and strings are UTF-16. "
    "The timestamps are fixed and old, so these signatures are for offline tests only; a live request "
    "needs a fresh timestamp within the server's window (P-AUTH-3, default +-300 s)."
)

KEBAB = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def build() -> dict:
    openssl = shutil.which("openssl")
    if openssl is None:
        print("warning: openssl not on PATH; signatures are NOT cross-checked", file=sys.stderr)
    seen: set[str] = set()
    vectors = []
    failures = []
    for case in CASES:
        cid = case["id"]
        if not KEBAB.fullmatch(cid):
            failures.append(f"{cid}: id is not kebab-case")
        if cid in seen:
            failures.append(f"{cid}: duplicate id")
        seen.add(cid)
        secret = case.get("secret", DEFAULT_SECRET)
        timestamp = case.get("timestamp", DEFAULT_TIMESTAMP)
        if type(timestamp) is not int or timestamp < 0:
            failures.append(f"{cid}: timestamp must be a non-negative integer")
            continue
        try:
            check_case(case)
        except (CanonicalError, ValueError) as err:
            failures.append(f"{cid}: {err}")
            continue
        message = case["canonical"] + str(timestamp)
        signature = hmac_hex(secret, message)
        if openssl is not None:
            other = openssl_hmac_hex(openssl, secret, message)
            if other != signature:
                failures.append(f"{cid}: HMAC DISAGREEMENT python={signature} openssl={other}")
        vectors.append(
            {
                "id": cid,
                "description": case["description"],
                "tags": case["tags"],
                "payload": case["payload"],
                "secret": secret,
                "timestamp": timestamp,
                "canonical": case["canonical"],
                "message": message,
                "signature": signature,
            }
        )
    if len(SECRET_64.encode("utf-8")) != 64:
        failures.append("SECRET_64 is not 64 bytes")
    if len(SECRET_LONG.encode("utf-8")) <= 64:
        failures.append("SECRET_LONG is not longer than 64 bytes")
    if len(vectors) < 40:
        failures.append(f"only {len(vectors)} vectors; at least 40 are required")
    if failures:
        print("make-vectors: FAILED", file=sys.stderr)
        for f in failures:
            print("  " + f, file=sys.stderr)
        sys.exit(1)
    return {
        "description": DESCRIPTION,
        "profile": "svc-conformance profile v1.3, P-SIGN-1/2/4",
        "how_to_use": HOW_TO_USE,
        "vectors": vectors,
    }


def render(data: dict) -> str:
    # This serializes the data FILE (a container of strings), not any canonical text.
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def main(argv: list[str]) -> int:
    text = render(build())
    count = len(CASES)
    if "--check" in argv:
        current = OUT.read_text(encoding="utf-8") if OUT.exists() else None
        if current != text:
            print(f"make-vectors: {OUT.relative_to(ROOT)} is out of date; run python3 scripts/make-vectors.py", file=sys.stderr)
            return 1
        print(f"make-vectors: {OUT.relative_to(ROOT)} is up to date ({count} vectors)")
        return 0
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with open(OUT, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)
    print(f"make-vectors: wrote {count} vectors to {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
