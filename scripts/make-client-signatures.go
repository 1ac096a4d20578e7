// Signatures made the way real Go clients make them, with encoding/json and crypto/hmac.
// Nothing here uses the kit's code: signer/diagnose.test.ts reads the output and must name the
// variants written here by hand. Run: go run scripts/make-client-signatures.go [OUT | -]
package main

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"os"
)

const secret = "sk_test_diag_5f2c9a"
const ts = "1732147200"

type address struct {
	Line1      string `json:"line1"`
	City       string `json:"city"`
	State      string `json:"state"`
	Country    string `json:"country"`
	PostalCode string `json:"postal_code"`
}

type customer struct {
	Name    string  `json:"name"`
	Email   string  `json:"email"`
	Phone   string  `json:"phone"`
	Address address `json:"address"`
}

// The order as Go code declares it: struct fields in the interface's order, not sorted.
type order struct {
	OrderID       string   `json:"order_id"`
	OrderAmount   string   `json:"order_amount"`
	OrderCurrency string   `json:"order_currency"`
	OrderNote     string   `json:"order_note"`
	ServiceType   string   `json:"service_type"`
	Customer      customer `json:"customer"`
	ReturnURL     string   `json:"return_url"`
}

var theOrder = order{
	OrderID: "ORD-2026-0042", OrderAmount: "1499.50", OrderCurrency: "INR",
	OrderNote: "gift wrap\u2028<fragile> & quick", ServiceType: "payment",
	Customer: customer{Name: "José Müller", Email: "jose@example.com", Phone: "+919812345678",
		Address: address{Line1: "12 MG Road", City: "Pune", State: "MH", Country: "IN", PostalCode: "411001"}},
	ReturnURL: "https://shop.example.com/return?order=ORD-2026-0042&lang=en",
}

// asMap turns the struct into maps, which encoding/json writes with sorted keys.
func asMap(v interface{}) interface{} {
	raw, err := json.Marshal(v)
	check(err)
	var m interface{}
	check(json.Unmarshal(raw, &m))
	return m
}

func encode(v interface{}, escapeHTML bool) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(escapeHTML)
	check(enc.Encode(v))
	return buf.String() // Encode ends the text with "\n"
}

func mac(algorithm func() hash.Hash, text string) []byte {
	h := hmac.New(algorithm, []byte(secret))
	h.Write([]byte(text))
	return h.Sum(nil)
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

type fixtureCase struct {
	Name      string   `json:"name"`
	Body      string   `json:"body"`
	Timestamp string   `json:"timestamp"`
	Secret    string   `json:"secret"`
	Signature string   `json:"signature"`
	Variants  []string `json:"variants"`
}

func main() {
	sortedMap := asMap(theOrder)
	// SetEscapeHTML(false) still escapes U+2028/U+2029; a correct client restores them and drops the newline.
	noHTML := bytes.TrimSuffix([]byte(encode(sortedMap, false)), []byte("\n"))
	canonical := string(bytes.ReplaceAll(bytes.ReplaceAll(noHTML, []byte(`\u2028`), []byte("\u2028")), []byte(`\u2029`), []byte("\u2029")))
	marshalled, err := json.Marshal(sortedMap) // json.Marshal: HTML escaping on, no newline
	check(err)
	structText, err := json.Marshal(theOrder)
	check(err)
	withNewline := encode(sortedMap, false)
	hexOf := func(text string) string { return hex.EncodeToString(mac(sha256.New, text)) }

	cases := []fixtureCase{
		{Name: "go: map keys sorted, SetEscapeHTML(false), newline trimmed, U+2028 restored", Body: canonical, Signature: hexOf(canonical + ts), Variants: []string{"canonical"}},
		{Name: "go: SetEscapeHTML(false), newline trimmed", Body: string(noHTML), Signature: hexOf(string(noHTML) + ts), Variants: []string{"escaped-line-terminators"}},
		{Name: "go: json.Marshal of a map", Body: string(marshalled), Signature: hexOf(string(marshalled) + ts), Variants: []string{"html-escaped", "escaped-line-terminators"}},
		{Name: "go: Encoder.Encode signed with its newline, body sent trimmed", Body: string(noHTML), Signature: hexOf(withNewline + ts), Variants: []string{"escaped-line-terminators", "trailing-newline"}},
		{Name: "go: canonical text signed, json.Marshal(struct) sent", Body: string(structText), Signature: hexOf(canonical + ts), Variants: []string{"body-not-canonical"}},
		{Name: "go: HMAC-SHA512 in base64", Body: canonical, Signature: base64.StdEncoding.EncodeToString(mac(sha512.New, canonical+ts)), Variants: []string{"hmac-sha512", "base64"}},
		{Name: "go: HMAC-SHA1 in hex", Body: canonical, Signature: hex.EncodeToString(mac(sha1.New, canonical+ts)), Variants: []string{"hmac-sha1"}},
	}
	for i := range cases {
		cases[i].Timestamp = ts
		cases[i].Secret = secret
	}
	doc := struct {
		Generator string        `json:"generator"`
		Runtime   string        `json:"runtime"`
		Cases     []fixtureCase `json:"cases"`
	}{"scripts/make-client-signatures.go", "go", cases}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	check(enc.Encode(doc))

	target := "signer/fixtures/client-signatures-go.json"
	if len(os.Args) > 1 {
		target = os.Args[1]
	}
	if target == "-" {
		os.Stdout.Write(out.Bytes())
		return
	}
	check(os.WriteFile(target, out.Bytes(), 0o644))
	fmt.Fprintf(os.Stderr, "wrote %d cases to %s\n", len(cases), target)
}
