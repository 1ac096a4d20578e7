// A loopback TCP proxy that holds every chunk for a fixed time each way: a target "across a network"
// without leaving the machine (equal delays fire in order, so a connection's order is kept).
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';

interface DelayProxy {
  /** The proxy's base URL (http://127.0.0.1:PORT), standing in for the upstream's. */
  baseUrl: string;
  close(): Promise<void>;
}

/** Proxies to `upstream` (an http://127.0.0.1:PORT URL), adding `oneWayMs` each way. */
export async function startDelayProxy(upstream: string, oneWayMs: number): Promise<DelayProxy> {
  const target = new URL(upstream);
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const server = connect(Number(target.port), target.hostname);
    for (const socket of [client, server]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        server.destroy();
      });
    }
    relay(client, server, oneWayMs);
    relay(server, client, oneWayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function relay(from: Socket, to: Socket, delayMs: number): void {
  from.setNoDelay(true);
  from.on('data', (chunk) => {
    setTimeout(() => {
      if (!to.destroyed) to.write(chunk);
    }, delayMs);
  });
  from.on('end', () => setTimeout(() => to.end(), delayMs));
}
