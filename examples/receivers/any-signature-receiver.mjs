#!/usr/bin/env node
// BROKEN ON PURPOSE: P-HOOK-7 (refuse a delivery whose signature is missing or does not match).
// It never looks at X-SIGNATURE, so a forged event (wrong signature, no signature, a body changed
// after signing) is acknowledged with 200 and processed. Everything else is good-receiver.mjs:
// X-TIMESTAMP must be whole seconds within ±300 s (401 otherwise), a body that is not a JSON object
// gets 400, a redelivery gets 200 again, and client mode confirms and starts a payout.
import { runAsScript } from './lib/receiver.mjs';

export const options = { name: 'any-signature-receiver', checkSignature: false }; // the defect

await runAsScript(import.meta.url, options);
