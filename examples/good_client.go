// A conforming merchant back end in Go (P-CLIENT-1..8), standard library only, making the choices
// the other examples do not: one keep-alive http.Client for every request, two requests in flight at
// once (Order Status and Balance Inquiry), header names as Go writes them ("X-Api-Key"), the order
// amount as a JSON number and the payout amount as a decimal string, a note with "<", "&", "/" and a
// U+2028 LINE SEPARATOR, which encoding/json escapes and the canonical text must not. The flow and
// the recovery rules are good-client.mjs's.
//
// Run: go run examples/good_client.go (under svc-conformance verify-client)
package main

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

const (
	createOrderPath  = "/api/v3/pg/order/create"
	orderStatusPath  = "/api/v3/pg/order/status"
	balancePath      = "/api/v3/banking/balance"
	initiatePath     = "/api/v3/banking/payment/initiate"
	payoutStatusPath = "/api/v3/banking/payment/status"
)

type object = map[string]interface{}

func say(format string, args ...interface{}) { fmt.Printf("[go-client] "+format+"\n", args...) }

// canonical is P-SIGN-1's text: maps marshal with sorted keys; HTML escaping off; the encoder's
// newline dropped; U+2028/U+2029, which encoding/json always escapes, written back raw.
func canonical(v interface{}) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	text := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	text = bytes.ReplaceAll(text, []byte(`\u2028`), []byte("\u2028"))
	return bytes.ReplaceAll(text, []byte(`\u2029`), []byte("\u2029"))
}

type answer struct {
	status     int // 0: no answer
	body       object
	retryAfter int
}

type client struct {
	base, apiKey, secret string
	http                 *http.Client
	mu                   sync.Mutex
	sent                 map[string]bool // (timestamp, signature) pairs: never one twice (P-CLIENT-3)
}

// sign picks the current second, or waits for the next one if this body was already signed in it.
func (c *client) sign(body []byte) (string, string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		ts := strconv.FormatInt(time.Now().Unix(), 10)
		mac := hmac.New(sha256.New, []byte(c.secret))
		mac.Write(body)
		mac.Write([]byte(ts))
		sig := hex.EncodeToString(mac.Sum(nil))
		if !c.sent[ts+":"+sig] {
			c.sent[ts+":"+sig] = true
			return ts, sig
		}
		time.Sleep(time.Until(time.Unix(time.Now().Unix()+1, 5e6)))
	}
}

func (c *client) send(path string, payload object) answer {
	body := canonical(payload)
	ts, sig := c.sign(body)
	req, err := http.NewRequest("POST", c.base+path, bytes.NewReader(body))
	if err != nil {
		panic(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("X-API-KEY", c.apiKey) // sent as X-Api-Key: header names are case-insensitive
	req.Header.Set("X-TIMESTAMP", ts)
	req.Header.Set("X-SIGNATURE", sig)
	res, err := c.http.Do(req)
	if err != nil {
		return answer{}
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	a := answer{status: res.StatusCode}
	_ = json.Unmarshal(raw, &a.body)
	if n, err := strconv.Atoi(strings.TrimSpace(res.Header.Get("Retry-After"))); err == nil {
		a.retryAfter = n
	}
	return a
}

func recoverable(a answer) bool { return a.status == 0 || a.status == 429 || a.status >= 500 }

// createWithRecovery: after a 5xx, a 429 or no answer, wait, ask the status operation, and repeat
// the same create only when the status says the record does not exist.
func (c *client) createWithRecovery(label, path string, payload object, statusPath string, statusPayload object, recordKey string) object {
	for attempt := 1; attempt <= 3; attempt++ {
		a := c.send(path, payload)
		say("%s: attempt %d → %d", label, attempt, a.status)
		if a.status >= 200 && a.status < 300 {
			record, _ := a.body[recordKey].(object)
			return record
		}
		if !recoverable(a) {
			return nil
		}
		wait := 1
		if a.status == 429 && a.retryAfter > wait {
			wait = a.retryAfter
		}
		time.Sleep(time.Duration(wait) * time.Second)
		var known answer
		for asked := 1; asked <= 3; asked++ {
			known = c.send(statusPath, statusPayload)
			say("%s: status query → %d", label, known.status)
			if !recoverable(known) {
				break
			}
			time.Sleep(time.Second)
		}
		if known.status == 200 {
			say("%s: the earlier attempt went through; not repeating it", label)
			record, _ := known.body["data"].(object)
			return record
		}
		if known.status != 404 {
			return nil
		}
	}
	return nil
}

func atLeast(balance, amount string) bool {
	b, ok1 := new(big.Rat).SetString(balance)
	a, ok2 := new(big.Rat).SetString(amount)
	return ok1 && ok2 && b.Cmp(a) >= 0
}

func main() {
	env := map[string]string{}
	for _, name := range []string{"SVC_BASE_URL", "SVC_API_KEY", "SVC_SECRET_KEY", "SVC_WALLET_ID"} {
		if env[name] = os.Getenv(name); env[name] == "" {
			fmt.Fprintf(os.Stderr, "missing %s: run under `svc-conformance verify-client -- go run examples/good_client.go`\n", name)
			os.Exit(2)
		}
	}
	c := &client{
		base: strings.TrimRight(env["SVC_BASE_URL"], "/"), apiKey: env["SVC_API_KEY"], secret: env["SVC_SECRET_KEY"],
		http: &http.Client{Timeout: 3 * time.Second}, sent: map[string]bool{},
	}
	wallet := env["SVC_WALLET_ID"]
	run := time.Now().UnixNano()

	// 1. Create Order.
	orderID := fmt.Sprintf("GO-%d", run)
	order := object{
		"order_id": orderID, "order_amount": 1499.5, "order_currency": "INR", "service_type": "payment",
		"order_note": "Fragile <glass> & ceramics / two boxes\u2028Deliver after 6 pm",
		"customer": object{
			"name": "Nguyễn Thị Hương", "email": "huong.nguyen@example.vn", "phone": "+84912345678",
			"address": object{"line1": "12 Lý Thường Kiệt", "line2": "Tầng 3", "city": "Hà Nội", "state": "HN", "country": "VN", "postal_code": "100000"},
		},
		"return_url": "https://shop.example/vi/return?order=" + orderID + "&lang=vi",
	}
	created := c.createWithRecovery("Create Order "+orderID, createOrderPath, order, orderStatusPath, object{"order_id": orderID}, "return_data")
	if created == nil {
		say("Create Order %s: gave up", orderID)
		os.Exit(1)
	}

	// 2 and 3 at once: Order Status of the new order and Balance Inquiry, both in flight together.
	var status, balance answer
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); status = c.send(orderStatusPath, object{"order_id": orderID}) }()
	go func() { defer wg.Done(); balance = c.send(balancePath, object{"svc_wallet_id": wallet}) }()
	wg.Wait()
	say("Order Status %s → %d; Balance Inquiry → %d", orderID, status.status, balance.status)
	amount := "10.00"
	data, _ := balance.body["data"].(object)
	if balance.status != 200 || !atLeast(fmt.Sprint(data["balance"]), amount) {
		say("not paying out without a known, sufficient balance")
		return
	}

	// 4. Transaction Initiation, the amount as text.
	payoutOrderID := fmt.Sprintf("GO-PO-%d", run)
	statusRequest := object{"svc_wallet_id": wallet, "debit_account_type": "svc_wallet", "payout_order_id": payoutOrderID}
	initiation := object{"amount": amount, "currency": "INR", "transfer_mode": "neft", "beneficiary": object{"name": "Công ty Hương Việt", "account_number": "001234567890", "ifsc": "HDFC0001234"}}
	for k, v := range statusRequest {
		initiation[k] = v
	}
	payout := c.createWithRecovery("Transaction Initiation "+payoutOrderID, initiatePath, initiation, payoutStatusPath, statusRequest, "data")
	if payout == nil {
		say("Transaction Initiation %s: gave up", payoutOrderID)
		os.Exit(1)
	}

	// 5. Payout Status at least once, then while PROCESSING/PENDING, for at most 6 s.
	deadline := time.Now().Add(6 * time.Second)
	for first := true; first || ((payout["status"] == "PROCESSING" || payout["status"] == "PENDING") && time.Now().Before(deadline)); first = false {
		if !first {
			time.Sleep(time.Second)
		}
		polled := c.send(payoutStatusPath, statusRequest)
		if record, ok := polled.body["data"].(object); polled.status == 200 && ok {
			payout = record
		}
		say("Payout Status %s → %d: %v", payoutOrderID, polled.status, payout["status"])
	}
}
