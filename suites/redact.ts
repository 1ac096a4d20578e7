import { createRedactor, type Redactor } from '../common/redact.js';
import type { TargetConfig } from './config.js';

export type { Redact, Redactor } from '../common/redact.js';

/** Every configured secret key in every form an echo might show it, Basic credentials and URL userinfo.
 *  Signatures are added where they are made (TargetClient). */
export function redactor(config: Pick<TargetConfig, 'merchant' | 'otherMerchant' | 'otherEnvironment'>): Redactor {
  return createRedactor({ secrets: [config.merchant.secretKey, config.otherMerchant?.secretKey, config.otherEnvironment?.secretKey] });
}
