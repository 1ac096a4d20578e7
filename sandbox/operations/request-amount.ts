// An amount in a request (P-AMOUNT): a JSON number or a decimal string, read by value into minor units;
// and the faults that refuse one of the two forms, so each operation applies them alike.
import { minorUnitOf, requestAmount, toMinorUnits } from '../../schemas/amounts.js';
import type { Currency } from '../../schemas/types.js';
import { OperationError, type OperationContext } from '../context.js';
import type { FaultName } from '../faults.js';

/** P-AMOUNT-1/2: the amount in minor units; too many decimals or too large to count exactly is a 400
 * (P-AMOUNT-2 lets a server refuse or round). */
export function amountInMinorUnits(value: unknown, currency: Currency, field: string): number {
  const amount = requestAmount(value);
  if (amount === undefined) throw new OperationError(400, `/${field}: must be a number or a decimal string greater than zero`);
  const minor = toMinorUnits(amount, currency);
  if (minor === undefined) {
    const digits = minorUnitOf(currency);
    throw new OperationError(
      400,
      `/${field}: ${currency} amounts have ${digits === 0 ? 'no decimal places' : `at most ${digits} decimal places`}`,
    );
  }
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) throw new OperationError(400, `/${field}: is too large`);
  return Number(minor);
}

/** The faults that read only one of P-AMOUNT-1's two forms, as servers that parse only floats or only text do. */
export function refuseAmountForm(ctx: OperationContext, field: string, faults: { string?: FaultName; number?: FaultName }): void {
  const value = ctx.body[field];
  if (typeof value === 'string' && faults.string !== undefined && ctx.fault(faults.string)) {
    throw new OperationError(400, `/${field}: must be number`);
  }
  if (typeof value === 'number' && faults.number !== undefined && ctx.fault(faults.number)) {
    throw new OperationError(400, `/${field}: must be a decimal string`);
  }
}
