import net from 'node:net';

/**
 * A TCP relay in front of a database server, for outage tests: `down()` drops every connection
 * and refuses new ones (the server "stopped"), `up()` accepts again on the same port. `hold()`
 * keeps what the server sends on the open connections from reaching the client until
 * `release()`, so a client cannot see that its connection died before it uses it.
 */
export interface TcpProxy {
  readonly port: number;
  hold(): void;
  release(): void;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const pairs = new Map<net.Socket, net.Socket>();
  let held: Array<[net.Socket, net.Socket]> = [];
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
      pairs.set(upstream, client);
      upstream.on('close', () => pairs.delete(upstream));
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
    hold() {
      held = [...pairs.entries()];
      for (const [upstream, client] of held) {
        upstream.unpipe(client);
        upstream.pause();
      }
    },
    release() {
      for (const [upstream, client] of held) {
        upstream.pipe(client);
        upstream.resume();
      }
      held = [];
    },
    down,
    up: listen,
    close: down,
  };
}
