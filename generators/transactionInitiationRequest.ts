// Transaction Initiation request bodies (P-OPS: the interface shows no payload). Every transfer mode
// is reachable, and the beneficiary carries what its mode needs.
import { fc } from '../common/fast-check.js';
import { memo } from '../common/memo.js';
import { CURRENCIES, type Currency, type TransactionInitiationRequest, type TransferMode } from '../schemas/types.js';
import { AMOUNT_FORMS, amountIn, type AmountForm } from './_internal/amounts.js';
import { beneficiaryFor, USUAL_CURRENCY } from './_internal/beneficiary.js';
import {
  checkCurrencies,
  checkIdPrefix,
  checkMaxAmount,
  checkNonEmptyString,
  checkOneOf,
  checkTransferModes,
} from './_internal/constraints.js';
import { payoutOrderIdArbitrary, walletIdArbitrary } from './_internal/identifiers.js';

export interface TransactionInitiationRequestConstraints {
  /** `svc_wallet_id` to send. Default: a made-up wallet id. */
  walletId?: string;
  /** `debit_account_type`. Default 'svc_wallet'. */
  debitAccountType?: string;
  /** Transfer modes to draw from. Default: the interface's whole table. */
  transferModes?: readonly TransferMode[];
  /** Currencies to draw from, whatever the mode (e.g. the wallet's currency). Default: the mode's
   *  usual currency (INR for imps/neft/rtgs/upi, EUR for sepa, USD for ach; any for wire/swift). */
  currencies?: readonly Currency[];
  /** `amount` stays strictly below this. Default 1_000_000. */
  maxAmount?: number;
  /** JSON form of `amount` (P-AMOUNT-1): numbers, decimal strings, or both. Default 'both'. */
  amountForm?: AmountForm;
  /** Every `payout_order_id` starts with this (e.g. a run id, so reruns do not collide). */
  payoutOrderIdPrefix?: string;
}

const API = 'transactionInitiationRequest';

/** The constraints checked, with their defaults filled in. */
function withDefaults(constraints: TransactionInitiationRequestConstraints) {
  return {
    walletId: checkNonEmptyString(API, 'walletId', constraints.walletId),
    debitAccountType: checkNonEmptyString(API, 'debitAccountType', constraints.debitAccountType, 'svc_wallet'),
    transferModes: checkTransferModes(API, 'transferModes', constraints.transferModes),
    currencies: checkCurrencies(API, 'currencies', constraints.currencies),
    maxAmount: checkMaxAmount(API, constraints.maxAmount, 1_000_000),
    amountForm: checkOneOf(API, 'amountForm', constraints.amountForm, AMOUNT_FORMS, 'both'),
    payoutOrderIdPrefix: checkIdPrefix(API, 'payoutOrderIdPrefix', constraints.payoutOrderIdPrefix),
  };
}

type ResolvedConstraints = ReturnType<typeof withDefaults>;

function currencyFor(mode: TransferMode, c: ResolvedConstraints): fc.Arbitrary<Currency> {
  if (c.currencies !== undefined) return fc.constantFrom(...c.currencies);
  const usual = USUAL_CURRENCY[mode];
  return usual === undefined ? fc.constantFrom(...CURRENCIES) : fc.constant(usual);
}

/** Transaction Initiation request bodies that the kit's schema accepts. */
export function transactionInitiationRequest(
  constraints: TransactionInitiationRequestConstraints = {},
): fc.Arbitrary<TransactionInitiationRequest> {
  const c = withDefaults(constraints);
  // One record arbitrary per mode and currency, made at its first draw (an arbitrary holds no state).
  const made = new Map<string, fc.Arbitrary<TransactionInitiationRequest>>();
  const requestIn = (mode: TransferMode, currency: Currency): fc.Arbitrary<TransactionInitiationRequest> =>
    memo(made, `${mode} ${currency}`, () =>
      fc.record({
        svc_wallet_id: c.walletId === undefined ? walletIdArbitrary() : fc.constant(c.walletId),
        debit_account_type: fc.constant(c.debitAccountType),
        payout_order_id: payoutOrderIdArbitrary(c.payoutOrderIdPrefix),
        amount: amountIn(currency, c.maxAmount, c.amountForm),
        currency: fc.constant(currency),
        transfer_mode: fc.constant(mode),
        beneficiary: beneficiaryFor(mode),
      }),
    );
  const byMode = new Map<TransferMode, fc.Arbitrary<TransactionInitiationRequest>>();
  return fc
    .constantFrom(...c.transferModes)
    .chain((mode) => memo(byMode, mode, () => currencyFor(mode, c).chain((currency) => requestIn(mode, currency))));
}
