#!/usr/bin/env node
// BROKEN ON PURPOSE: P-HOOK-9 (confirm before acting). In client mode it acts on what a genuine
// event says (the payout succeeded, the order is paid) without asking Payout Status or Order Status,
// so a delayed or out-of-order event decides its state instead of the status operation. As a plain
// receiver it is good-receiver.mjs: verify-receiver cannot see the difference, verify-client
// --webhook-url can.
import { runAsScript } from './lib/receiver.mjs';

export const options = { name: 'trusting-receiver', confirmEvents: false }; // the defect

await runAsScript(import.meta.url, options);
