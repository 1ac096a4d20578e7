import { createRedactor, type Redactor } from '../common/redact.js';
import type { TargetConfig } from './config.js';

export type { Redact, Redactor } from '../common/redact.js';

/**
 * The redactor of a run: every configured secret key, in every form an echoing server or a careless
 * error message might show it, with Basic credentials and URL userinfo. Signatures are added where
 * they are made (TargetClient).
 */
export function redactor(config: Pick<TargetConfig, 'merchant' | 'otherMerchant' | 'otherEnvironment'>): Redactor {
  return createRedactor({ secrets: [config.merchant.secretKey, config.otherMerchant?.secretKey, config.otherEnvironment?.secretKey] });
}
