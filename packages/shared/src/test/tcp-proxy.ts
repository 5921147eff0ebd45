import net from 'node:net';

/**
 * A TCP relay in front of a database server, for outage tests: `down()` drops every connection
 * and refuses new ones (the server "stopped"), `up()` accepts again on the same port.
 */
export interface TcpProxy {
  readonly port: number;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;

  async function listen(): Promise<void> {
    if (server) return;
    const s = net.createServer((client) => {
      const upstream = net.connect(target.port, target.host);
      for (const sock of [client, upstream]) {
        sockets.add(sock);
        sock.on('close', () => sockets.delete(sock));
        sock.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
    server = s;
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        port = (s.address() as net.AddressInfo).port;
        resolve();
      });
    });
  }

  async function down(): Promise<void> {
    const s = server;
    server = null;
    for (const sock of sockets) sock.destroy();
    sockets.clear();
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  await listen();
  return {
    get port() {
      return port;
    },
    down,
    up: listen,
    close: down,
  };
}
