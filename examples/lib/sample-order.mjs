// A web-shop order as the Node examples send it: every required field of the interface's table
// (address included), a customer name with non-ASCII letters and a return_url with a path and query.
export function sampleOrder(orderId, { amount = 1499.5, note = 'Two notebooks, gift wrapped' } = {}) {
  return {
    order_id: orderId,
    order_amount: amount,
    order_currency: 'INR',
    order_note: note,
    service_type: 'payment',
    customer: {
      name: 'José Müller',
      email: 'jose.muller@example.com',
      phone: '+919812345678',
      address: { line1: '12 MG Road', city: 'Pune', state: 'MH', country: 'IN', postal_code: '411001' },
    },
    return_url: `https://shop.example/checkout/return?order=${orderId}`,
  };
}
