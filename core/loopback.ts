/**
 * True for hosts that never leave the machine: 127.0.0.0/8, localhost, ::1. Takes a URL's hostname
 * (`[::1]` with its brackets) or a bare address. One rule for the checks (plain http is fine on
 * loopback), serve's bind warning and the sandbox's webhook registration.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}
