/** True for 127.0.0.0/8, localhost and ::1; takes a URL's hostname (`[::1]` bracketed) or a bare address. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}
