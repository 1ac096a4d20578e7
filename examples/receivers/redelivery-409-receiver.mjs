#!/usr/bin/env node
// BROKEN ON PURPOSE: P-HOOK-8 (a redelivery of an acknowledged event is answered 200 again). It
// answers 409 {"error":"event already processed"} to an event_id it has already acknowledged, so a
// sender that retries (because the first 200 got lost) sees a failed delivery every time.
// Everything else is good-receiver.mjs: signature and timestamp checks, 400 for a non-JSON body,
// 200 at once for a new event, client mode.
import { runAsScript } from './lib/receiver.mjs';

export const options = { name: 'redelivery-409-receiver', redeliveryStatus: 409 }; // the defect

await runAsScript(import.meta.url, options);
