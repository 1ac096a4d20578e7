#!/usr/bin/env node
// BROKEN ON PURPOSE: P-HOOK-6 (a genuine delivery is answered 200 within 10 seconds). It does its
// processing first (in client mode, the status query too) and answers 200 only 12 seconds after
// the delivery arrived, new event or redelivery alike, so the sender counts every delivery as
// failed and retries it. Forgeries are refused at once, as by good-receiver.mjs, and everything
// else is the same. SLOW_ACK_MS overrides the delay (default 12000) for quick manual tries.
import { runAsScript } from './lib/receiver.mjs';

const delay = Number(process.env.SLOW_ACK_MS ?? 12000);
export const options = { name: 'slow-ack-receiver', ackAfterMs: Number.isFinite(delay) && delay > 0 ? delay : 12000 }; // the defect

await runAsScript(import.meta.url, options);
