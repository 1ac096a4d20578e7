import type { TargetConfig } from './config.js';

export type Redact = (text: string) => string;

/**
 * Replaces every configured secret key wherever it appears (an echoing server, a careless error
 * message), so reports and logs never carry one. Signatures are redacted where they are written.
 */
export function redactor(config: Pick<TargetConfig, 'merchant' | 'otherMerchant' | 'otherEnvironment'>): Redact {
  const secrets = [config.merchant.secretKey, config.otherMerchant?.secretKey, config.otherEnvironment?.secretKey]
    .filter((s): s is string => typeof s === 'string' && s.length >= 4)
    .sort((a, b) => b.length - a.length);
  if (secrets.length === 0) return (text) => text;
  const pattern = new RegExp(secrets.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
  return (text) => text.replace(pattern, '[redacted:secret]');
}
