// Test support: a server on loopback that the test closes after it, with every socket it still holds.
import type { Server, Socket } from 'node:net';

/** Listens on 127.0.0.1 at a free port and adds to `closers` what closes it; its base URL. */
export async function listenOnLoopback(server: Server, closers: Array<() => Promise<void>>): Promise<string> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // The kit closes a connection without reading it out: a reset is how a server sees that.
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}
