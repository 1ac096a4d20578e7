// Whether the target is the kit's reference sandbox, so that the sandbox's control requests (open a
// spare wallet, settle a payout, submit the hosted checkout, register a webhook receiver) may be sent.
// The config declares it (`"target": "reference-sandbox"`, written by `serve --config-out` and the
// embedded sandbox); it is never inferred from what a target answers (P-CFG v1.3), since a target
// that merely behaves like the sandbox must be judged as any other, and a real deployment must never
// receive a request on a path the interface does not have.
import type { TargetConfig } from './config.js';

/** True only when the config declares the reference sandbox, and never for production. */
export function isReferenceSandbox(ctx: { config: Pick<TargetConfig, 'target' | 'environment'> }): boolean {
  return ctx.config.target === 'reference-sandbox' && ctx.config.environment !== 'production';
}
