<?php
// Signatures made the way real PHP clients make them, with json_encode, hash_hmac and base64_encode.
// Nothing here uses the kit's code: signer/diagnose.test.ts reads the output and must name the
// variants written here by hand. Run: php scripts/make-client-signatures.php [OUT | -]

const SECRET = 'sk_test_diag_5f2c9a';
const TS = '1732147200';

// The order as PHP code builds it: an array in the interface's field order. The note holds a
// U+2028 LINE SEPARATOR, as text pasted from a word processor may.
$order = [
    'order_id' => 'ORD-2026-0042',
    'order_amount' => '1499.50',
    'order_currency' => 'INR',
    'order_note' => "gift wrap\u{2028}<fragile> & quick",
    'service_type' => 'payment',
    'customer' => [
        'name' => 'José Müller',
        'email' => 'jose@example.com',
        'phone' => '+919812345678',
        'address' => ['line1' => '12 MG Road', 'city' => 'Pune', 'state' => 'MH', 'country' => 'IN', 'postal_code' => '411001'],
    ],
    'return_url' => 'https://shop.example.com/return?order=ORD-2026-0042&lang=en',
];

function sorted(array $value): array
{
    ksort($value, SORT_STRING);
    foreach ($value as $k => $v) {
        if (is_array($v)) {
            $value[$k] = sorted($v);
        }
    }
    return $value;
}

function sig(string $text, string $algo = 'sha256', bool $raw = false): string
{
    return hash_hmac($algo, $text, SECRET, $raw);
}

$flags = JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE;
$canonical = json_encode(sorted($order), $flags | JSON_UNESCAPED_LINE_TERMINATORS);
$lineSeparators = json_encode(sorted($order), $flags); // U+2028 still escaped without the third flag
$defaults = json_encode($order); // what Guzzle's 'json' option sends: unsorted, \/ and \u00e9

$cases = [
    ['php: ksort, unescaped slashes, unicode and line terminators', $canonical, sig($canonical . TS), ['canonical']],
    ['php: ksort with JSON_UNESCAPED_UNICODE but not JSON_UNESCAPED_LINE_TERMINATORS', $lineSeparators, sig($lineSeparators . TS), ['escaped-line-terminators']],
    ['php: base64_encode(hash_hmac(...)) of the hex text', $canonical, base64_encode(sig($canonical . TS)), ['base64-of-hex']],
    ['php: base64_encode(hash_hmac(..., true)) of the raw digest', $canonical, base64_encode(sig($canonical . TS, 'sha256', true)), ['base64']],
    ['php: HMAC-SHA1', $canonical, sig($canonical . TS, 'sha1'), ['hmac-sha1']],
    ['php: HMAC-SHA512 over a json_encode default body', $defaults, sig($defaults . TS, 'sha512'), ['unsorted-keys', 'escaped-slashes', 'escaped-unicode', 'hmac-sha512']],
    // Signs the canonical text, then lets the HTTP library encode the array again for the body.
    ['php: canonical text signed, json_encode($order) sent', $defaults, sig($canonical . TS), ['body-not-canonical']],
];

$out = [];
foreach ($cases as [$name, $body, $signature, $variants]) {
    $out[] = ['name' => $name, 'body' => $body, 'timestamp' => TS, 'secret' => SECRET, 'signature' => $signature, 'variants' => $variants];
}
$text = json_encode(['generator' => 'scripts/make-client-signatures.php', 'runtime' => 'php', 'cases' => $out], JSON_PRETTY_PRINT | $flags) . "\n";
$target = $argv[1] ?? __DIR__ . '/../signer/fixtures/client-signatures-php.json';
if ($target === '-') {
    echo $text;
} else {
    file_put_contents($target, $text);
    fwrite(STDERR, 'wrote ' . count($out) . " cases to $target\n");
}
