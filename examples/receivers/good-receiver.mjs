#!/usr/bin/env node
// A conforming webhook receiver (P-HOOK-6..9). Checks X-TIMESTAMP (whole seconds, ±300 s) and
// X-SIGNATURE (HMAC over the raw body bytes + the timestamp text, constant-time compare), answers
// a redelivered event_id with 200 again without processing it twice, and answers a new event with
// 200 at once, processing it afterwards. In client mode (SVC_BASE_URL, SVC_API_KEY, SVC_WALLET_ID
// set, as verify-client sets them) it starts a 10.00 INR payout once it listens (Balance Inquiry
// first), and confirms every genuine new event with Payout Status or Order Status before acting.
//
// Run: SVC_SECRET_KEY=… PORT=4020 node examples/receivers/good-receiver.mjs
import { runAsScript } from './lib/receiver.mjs';

export const options = { name: 'good-receiver' };

await runAsScript(import.meta.url, options);
