<?php
// A conforming merchant back end in PHP (P-CLIENT-1..8), standard library only, making the choices
// the other examples do not: amounts as decimal strings ("1499.50"), integer order and payout ids,
// lower-case header names, the optional fields left out, a new connection for every request
// (PHP's http stream wrapper sends Connection: close). The flow is good-client.mjs's: Create Order,
// Order Status, Balance Inquiry, Transaction Initiation, Payout Status until the payout settles; a
// create that fails with a 5xx, a 429 or no answer is followed by its status query and repeated
// only when that says the record does not exist.

const PATHS = [
    'create_order' => '/api/v3/pg/order/create',
    'order_status' => '/api/v3/pg/order/status',
    'balance' => '/api/v3/banking/balance',
    'initiate' => '/api/v3/banking/payment/initiate',
    'payout_status' => '/api/v3/banking/payment/status',
];
const TIMEOUT_SECONDS = 3;

function say(string $line): void
{
    fwrite(STDOUT, "[php-client] $line\n");
}

function target(): array
{
    $names = ['SVC_BASE_URL', 'SVC_API_KEY', 'SVC_SECRET_KEY', 'SVC_WALLET_ID'];
    $missing = array_values(array_filter($names, fn ($n) => (getenv($n) ?: '') === ''));
    if ($missing) {
        fwrite(STDERR, 'missing ' . implode(', ', $missing) . ": run under `svc-conformance verify-client -- php examples/good_client.php`\n");
        exit(2);
    }
    return [rtrim(getenv('SVC_BASE_URL'), '/'), getenv('SVC_API_KEY'), getenv('SVC_SECRET_KEY'), getenv('SVC_WALLET_ID')];
}

/** P-SIGN-1: keys sorted at every depth, compact, "/", non-ASCII and U+2028/2029 unescaped. */
function canonical($value): string
{
    $sort = function ($v) use (&$sort) {
        if (!is_array($v) || array_is_list($v)) {
            return is_array($v) ? array_map($sort, $v) : $v;
        }
        ksort($v, SORT_STRING);
        return array_map($sort, $v);
    };
    return json_encode($sort($value), JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_LINE_TERMINATORS | JSON_THROW_ON_ERROR);
}

final class Client
{
    /** @var array<string, true> (timestamp, signature) pairs sent: never one twice (P-CLIENT-3) */
    private array $sent = [];

    public function __construct(private string $baseUrl, private string $apiKey, private string $secret)
    {
    }

    /** Sends a signed POST; returns [status, body|null, retryAfterSeconds|null], status 0 for no answer. */
    public function send(string $path, array $payload): array
    {
        $body = canonical($payload);
        for (;;) {
            $timestamp = (string) time();
            $signature = hash_hmac('sha256', $body . $timestamp, $this->secret);
            if (!isset($this->sent["$timestamp:$signature"])) {
                break;
            }
            usleep((int) ((1 - fmod(microtime(true), 1)) * 1e6) + 5000);
        }
        $this->sent["$timestamp:$signature"] = true;
        $headers = implode("\r\n", [
            'content-type: application/json',
            'accept: application/json',
            "x-api-key: {$this->apiKey}",
            "x-timestamp: $timestamp",
            "x-signature: $signature",
        ]);
        $context = stream_context_create(['http' => [
            'method' => 'POST', 'header' => $headers, 'content' => $body,
            'timeout' => TIMEOUT_SECONDS, 'ignore_errors' => true, 'protocol_version' => 1.1,
        ]]);
        $text = @file_get_contents($this->baseUrl . $path, false, $context);
        $responseHeaders = $http_response_header ?? [];
        if ($text === false || !$responseHeaders) {
            return [0, null, null];
        }
        preg_match('#^HTTP/\S+\s+(\d{3})#', $responseHeaders[0], $m);
        $retryAfter = null;
        foreach ($responseHeaders as $line) {
            if (preg_match('/^retry-after:\s*(\d+)\s*$/i', $line, $r)) {
                $retryAfter = (int) $r[1];
            }
        }
        return [(int) ($m[1] ?? 0), json_decode($text, true), $retryAfter];
    }
}

function recoverable(int $status): bool
{
    return $status === 0 || $status === 429 || $status >= 500;
}

/** Creates a record; after a 5xx, 429 or no answer: wait, ask the status operation, repeat only on 404. */
function createWithRecovery(Client $client, string $label, string $path, array $payload, string $statusPath, array $statusPayload, string $recordKey): ?array
{
    for ($attempt = 1; $attempt <= 3; $attempt++) {
        [$status, $body, $retryAfter] = $client->send($path, $payload);
        say("$label: " . ($attempt === 1 ? 'sent' : 'repeated the same request') . " → $status");
        if ($status >= 200 && $status < 300) {
            return $body[$recordKey];
        }
        if (!recoverable($status)) {
            return null;
        }
        sleep($status === 429 ? max(1, $retryAfter ?? 1) : 1);
        for ($asked = 1; $asked <= 3; $asked++) {
            [$known, $record, $wait] = $client->send($statusPath, $statusPayload);
            say("$label: status query → $known");
            if (!recoverable($known)) {
                break;
            }
            sleep(max(1, $wait ?? 1));
        }
        if ($known === 200) {
            say("$label: the earlier attempt went through; not repeating it");
            return $record['data'];
        }
        if ($known !== 404) {
            return null;
        }
    }
    return null;
}

[$baseUrl, $apiKey, $secret, $wallet] = target();
$client = new Client($baseUrl, $apiKey, $secret);

// 1. Create Order: an integer order_id, the amount as text, no order_note and no address line2.
$orderId = (int) (microtime(true) * 1000) * 1000 + random_int(0, 999);
$order = [
    'order_id' => $orderId,
    'order_amount' => '1499.50',
    'order_currency' => 'INR',
    'service_type' => 'payment',
    'customer' => [
        'name' => '山田 太郎',
        'email' => 'taro.yamada@example.jp',
        'phone' => '+819012345678',
        'address' => ['line1' => '1-2-3 Shibuya', 'city' => 'Tokyo', 'state' => 'Tokyo', 'country' => 'JP', 'postal_code' => '150-0002'],
    ],
    'return_url' => "https://shop.example/ja/return?order=$orderId&step=done",
];
$created = createWithRecovery($client, "Create Order $orderId", PATHS['create_order'], $order, PATHS['order_status'], ['order_id' => $orderId], 'return_data');
if ($created === null) {
    say("Create Order $orderId: gave up");
    exit(1);
}
say("Create Order $orderId: {$created['order_status']}");

// 2. Order Status, the service's word on the order.
[$status, $body] = $client->send(PATHS['order_status'], ['order_id' => $orderId]);
say("Order Status $orderId → $status" . ($status === 200 ? ": {$body['data']['order_status']}" : ''));

// 3. Balance Inquiry before paying out; amounts compared as decimals, not floats.
$amount = '10.00';
[$status, $body] = $client->send(PATHS['balance'], ['svc_wallet_id' => $wallet]);
if ($status !== 200 || bccomp_safe($body['data']['balance'], $amount) < 0) {
    say("Balance Inquiry → $status: not paying out");
    exit(0);
}
say("Balance Inquiry → 200: {$body['data']['balance']} {$body['data']['currency']}");

// 4. Transaction Initiation with an integer payout_order_id and the amount as text.
$payoutOrderId = $orderId + 1;
$statusRequest = ['svc_wallet_id' => $wallet, 'debit_account_type' => 'svc_wallet', 'payout_order_id' => $payoutOrderId];
$initiation = $statusRequest + ['amount' => $amount, 'currency' => 'INR', 'transfer_mode' => 'upi', 'beneficiary' => ['name' => 'Sato Shoten', 'vpa' => 'sato.shoten@upi']];
$payout = createWithRecovery($client, "Transaction Initiation $payoutOrderId", PATHS['initiate'], $initiation, PATHS['payout_status'], $statusRequest, 'data');
if ($payout === null) {
    say("Transaction Initiation $payoutOrderId: gave up");
    exit(1);
}
say("Transaction Initiation $payoutOrderId: {$payout['status']} ({$payout['message']})");

// 5. Payout Status at least once, then while PROCESSING/PENDING, for at most 6 s.
$deadline = microtime(true) + 6;
do {
    [$status, $body] = $client->send(PATHS['payout_status'], $statusRequest);
    say("Payout Status $payoutOrderId → $status" . ($status === 200 ? ": {$body['data']['status']}" : ''));
    if ($status === 200) {
        $payout = $body['data'];
    }
    $settling = in_array($payout['status'], ['PROCESSING', 'PENDING'], true);
    if ($settling) {
        sleep(1);
    }
} while ($settling && microtime(true) < $deadline);
say("payout $payoutOrderId: {$payout['status']}");
exit(0);

/** Compares two decimal strings without floats (bcmath may be absent from php-cli). */
function bccomp_safe(string $a, string $b): int
{
    [$aw, $af] = array_pad(explode('.', $a, 2), 2, '');
    [$bw, $bf] = array_pad(explode('.', $b, 2), 2, '');
    $width = max(strlen($af), strlen($bf));
    $x = ltrim($aw . str_pad($af, $width, '0'), '0');
    $y = ltrim($bw . str_pad($bf, $width, '0'), '0');
    return strlen($x) <=> strlen($y) ?: strcmp($x, $y) <=> 0;
}
