// Interface: Authentication / Signature. Profile: P-SIGN-1, P-SIGN-5. A server must accept correctly
// signed canonical bodies whatever characters they hold; each check isolates one kind of character.
import type { Check, CheckContext } from '../check.js';
import { createOrder, expectSuccess, validOrder } from '../requests.js';
import { creating } from './shared-auth.js';

/** SIGN-NON-ASCII: raw UTF-8 letters in the canonical text, not \u escapes. */
async function acceptsNonAsciiText(ctx: CheckContext): Promise<void> {
  const order = validOrder(ctx);
  order.customer.name = 'José Müller';
  const exchange = await createOrder(ctx, order, 'Create Order with customer.name "José Müller"');
  expectSuccess(exchange, 'a canonical body with non-ASCII text, signed over its raw UTF-8, must be accepted');
}

/** SIGN-SLASHES: "/" left unescaped, in a return_url with a path and a query. */
async function acceptsUnescapedSlashes(ctx: CheckContext): Promise<void> {
  const order = validOrder(ctx);
  order.return_url = `https://merchant.example/shop/orders/return?order_id=${encodeURIComponent(String(order.order_id))}`;
  const exchange = await createOrder(ctx, order, 'Create Order whose return_url has a path and a query');
  expectSuccess(exchange, 'a canonical body with unescaped slashes must be accepted');
}

/** SIGN-HTML-CHARACTERS: "&", "<" and ">" written as they are, not as \u0026 \u003c \u003e. */
async function acceptsHtmlCharacters(ctx: CheckContext): Promise<void> {
  const order = validOrder(ctx);
  order.order_note = 'Gift wrap <b>fragile</b> & more than 2 > 1';
  const exchange = await createOrder(ctx, order, 'Create Order whose order_note holds &, < and >');
  expectSuccess(exchange, 'a canonical body with &, < and > must be accepted');
}

export const signatureChecks: Check[] = [
  creating('sign-non-ascii', 'SIGN-NON-ASCII', 'Create Order with "José Müller" is accepted', acceptsNonAsciiText),
  creating('sign-slashes', 'SIGN-SLASHES', 'Create Order with a return_url path and query is accepted', acceptsUnescapedSlashes),
  creating('sign-html-characters', 'SIGN-HTML-CHARACTERS', 'Create Order with &, < and > in order_note is accepted', acceptsHtmlCharacters),
];
