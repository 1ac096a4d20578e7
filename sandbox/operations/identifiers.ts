// Merchant identifiers as P-DUP-5 has them: exact text, nothing trimmed or cut. Three faults break it as
// databases do: a case-insensitive collation, a VARCHAR(64) or a VARCHAR(255) that cuts what it stores.
import { OperationError, type OperationContext } from '../context.js';

/** Past this many characters (code points, as a person counts them: an emoji is one) an identifier is "long"
 * (variant `longIds: 'refuse'`, fault `dup-id-truncated`). */
const LONG_ID_CHARACTERS = 64;

/** Under variant `longIds: 'refuse'`, a 400 for an identifier longer than the limit (P-DUP-5). */
export function refuseLongId(ctx: OperationContext, field: 'order_id' | 'payout_order_id', id: unknown): void {
  if (ctx.options.variant.longIds === 'refuse' && typeof id === 'string' && [...id].length > LONG_ID_CHARACTERS) {
    throw new OperationError(400, `/${field}: at most ${LONG_ID_CHARACTERS} characters`);
  }
}

/** The order_id as stored: as sent, or cut to the column's width under `dup-id-truncated` (64) or `dup-id-truncated-255` (255). */
export function storedOrderId(ctx: OperationContext, id: number | string): number | string {
  if (typeof id !== 'string') return id;
  const width = ctx.fault('dup-id-truncated') ? LONG_ID_CHARACTERS : ctx.fault('dup-id-truncated-255') ? 255 : undefined;
  return width === undefined ? id : [...id].slice(0, width).join('');
}

/** The text an order_id is compared by: itself (P-DUP-4/5), or folded to lower case under `dup-id-case-insensitive`. */
export function comparedOrderId(ctx: OperationContext, id: number | string): string {
  return ctx.fault('dup-id-case-insensitive') ? String(id).toLowerCase() : String(id);
}
