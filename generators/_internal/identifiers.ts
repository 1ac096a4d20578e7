// Made-up identifiers for the banking operations; the interface does not show their formats.
import { fc } from '../../common/fast-check.js';
import { alphanumericString, UPPER_ALPHANUMERIC } from './seededFaker.js';

/** Wallet ids such as `WAL7K2M9QX4PZ3A`. */
export function walletIdArbitrary(): fc.Arbitrary<string> {
  return alphanumericString(12, 12, UPPER_ALPHANUMERIC).map((tail) => `WAL${tail}`);
}

/** Made-up payout order ids such as `PAYOUT-2026-000042`, or `${prefix}-…` when a prefix is given. */
export function payoutOrderIdArbitrary(prefix?: string): fc.Arbitrary<string> {
  const head = prefix === undefined ? fc.constantFrom('PAYOUT', 'PO', 'WD', 'VENDOR') : fc.constant(prefix);
  return fc.oneof(
    fc
      .tuple(head, fc.integer({ min: 2020, max: 2030 }), fc.integer({ min: 1, max: 999_999 }))
      .map(([h, year, serial]) => `${h}-${year}-${String(serial).padStart(6, '0')}`),
    fc.tuple(head, alphanumericString(8, 16, UPPER_ALPHANUMERIC)).map(([h, tail]) => `${h}-${tail}`),
  );
}
