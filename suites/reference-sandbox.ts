// The config declares the reference sandbox (`"target": "reference-sandbox"`); never inferred from its
// answers (P-CFG v1.3), so a look-alike is judged as any other and gets no control requests.
import type { TargetConfig } from './config.js';

/** True only when the config declares the reference sandbox, and never for production. */
export function isReferenceSandbox(ctx: { config: Pick<TargetConfig, 'target' | 'environment'> }): boolean {
  return ctx.config.target === 'reference-sandbox' && ctx.config.environment !== 'production';
}
