import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeErrors, validateSchema } from '../schemas/index.js';
import { decimalMinus, decimalOf, requestAmount } from '../schemas/amounts.js';
import { CURRENCIES, TRANSFER_MODES, type RequestAmount, type TransactionInitiationRequest } from '../schemas/types.js';
import { transactionInitiationRequest, type TransactionInitiationRequestConstraints } from './transactionInitiationRequest.js';

/** Above zero and below `max`, by value (P-AMOUNT-3), whatever the amount's form. */
function below(amount: RequestAmount, max: number): boolean {
  const value = requestAmount(amount);
  return value !== undefined && value.units > 0n && decimalMinus(value, decimalOf(max)!).units < 0n;
}

function assertSchemaValid(request: TransactionInitiationRequest): void {
  const result = validateSchema('transaction-initiation-request', request);
  if (!result.valid) throw new Error(`${describeErrors(result.errors)}\nin ${JSON.stringify(request)}`);
}

/** What each mode's beneficiary must look like (realism beyond the schema's required fields). */
function beneficiaryMatchesMode({ transfer_mode: mode, beneficiary: b, currency }: TransactionInitiationRequest): void {
  expect(b.name.length).toBeGreaterThan(0);
  switch (mode) {
    case 'upi':
      expect(b.vpa).toMatch(/^[a-z0-9._-]+@[a-z]+$/);
      expect(currency).toBe('INR');
      break;
    case 'imps':
    case 'neft':
    case 'rtgs':
      expect(b.ifsc).toMatch(/^[A-Z]{4}0[A-Z0-9]{6}$/);
      expect(b.account_number).toMatch(/^\d{9,18}$/);
      expect(currency).toBe('INR');
      break;
    case 'sepa':
      expect(b.iban).toMatch(/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/);
      expect(currency).toBe('EUR');
      break;
    case 'ach':
      expect(b.account_number).toMatch(/^\d{8,17}$/);
      expect(currency).toBe('USD');
      break;
    case 'wire':
    case 'swift':
      expect(b.swift_code).toMatch(/^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/);
      expect((b.account_number === undefined) !== (b.iban === undefined)).toBe(true);
      break;
  }
}

describe('transactionInitiationRequest (P-OPS, P-OPS-3)', () => {
  it('every value satisfies the transaction-initiation-request schema, with a beneficiary fit for its mode', () => {
    fc.assert(
      fc.property(transactionInitiationRequest(), (request) => {
        assertSchemaValid(request);
        beneficiaryMatchesMode(request);
        expect(below(request.amount, 1_000_000), JSON.stringify(request.amount)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('reaches every transfer mode, and every currency through wire/swift', () => {
    const requests = fc.sample(transactionInitiationRequest(), { seed: 42, numRuns: 1_000 });
    expect(new Set(requests.map((r) => r.transfer_mode))).toEqual(new Set(TRANSFER_MODES));
    expect(new Set(requests.map((r) => r.currency))).toEqual(new Set(CURRENCIES));
    const wires = requests.filter((r) => r.transfer_mode === 'wire' || r.transfer_mode === 'swift');
    expect(new Set(wires.map((r) => (r.beneficiary.iban === undefined ? 'account' : 'iban')))).toEqual(new Set(['account', 'iban']));
  });

  it('honours its constraints', () => {
    const constraints: TransactionInitiationRequestConstraints = {
      walletId: 'WAL-1',
      debitAccountType: 'svc_wallet',
      transferModes: ['upi', 'sepa'],
      currencies: ['INR'],
      maxAmount: 10,
      payoutOrderIdPrefix: 'RUN9',
    };
    fc.assert(
      fc.property(transactionInitiationRequest(constraints), (request) => {
        assertSchemaValid(request);
        expect(request.svc_wallet_id).toBe('WAL-1');
        expect(['upi', 'sepa']).toContain(request.transfer_mode);
        expect(request.currency).toBe('INR');
        expect(below(request.amount, 10)).toBe(true);
        expect(String(request.payout_order_id)).toMatch(/^RUN9-/);
      }),
      { numRuns: 100 },
    );
  });

  it('is deterministic for a seed', () => {
    expect(fc.sample(transactionInitiationRequest(), { seed: 42, numRuns: 20 })).toEqual(
      fc.sample(transactionInitiationRequest(), { seed: 42, numRuns: 20 }),
    );
  });

  it.each<[string, TransactionInitiationRequestConstraints]>([
    ['empty transferModes', { transferModes: [] }],
    ['unknown transfer mode', { transferModes: ['paypal'] as never }],
    ['empty currencies', { currencies: [] }],
    ['unknown currency', { currencies: ['XYZ'] as never }],
    ['maxAmount below 1', { maxAmount: 0.5 }],
    ['bad prefix', { payoutOrderIdPrefix: 'a b' }],
    ['empty walletId', { walletId: '' }],
  ])('rejects bad constraints when built: %s', (_, constraints) => {
    expect(() => transactionInitiationRequest(constraints)).toThrow(/^transactionInitiationRequest: /);
  });
});
