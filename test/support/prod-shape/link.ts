import { createConnection, createServer, type Socket } from 'node:net';

/**
 * A network link between the agents and the API that can be cut: a TCP relay to `targetPort`.
 * Cut, it forwards nothing either way and holds new connections unanswered, as a partition drops
 * packets (nothing is refused or closed: each side waits on its own timeouts); healed, what was
 * held flows again, as TCP delivers what it retransmits.
 */
export async function startLink(targetPort: number) {
  /** Each direction of each connection: where its bytes go, and what waits while the link is cut. */
  const flows = new Set<{ to: Socket; held: Buffer[] }>();
  const sockets = new Set<Socket>();
  let cut = false;
  const relay = (from: Socket, to: Socket) => {
    const flow = { to, held: [] as Buffer[] };
    flows.add(flow);
    from.on('data', (chunk: Buffer) => {
      if (cut) flow.held.push(chunk);
      else to.write(chunk);
    });
    from.on('close', () => flows.delete(flow));
  };
  const server = createServer((inbound) => {
    const outbound = createConnection({ host: '127.0.0.1', port: targetPort });
    relay(inbound, outbound);
    relay(outbound, inbound);
    const end = () => {
      inbound.destroy();
      outbound.destroy();
    };
    for (const socket of [inbound, outbound]) {
      sockets.add(socket);
      socket.on('error', end).on('close', () => {
        sockets.delete(socket);
        end();
      });
    }
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the link did not listen');
  return {
    url: `http://127.0.0.1:${address.port}`,
    cut() {
      cut = true;
    },
    heal() {
      cut = false;
      for (const flow of flows) for (const chunk of flow.held.splice(0)) flow.to.write(chunk);
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((closed) => server.close(closed));
    },
  };
}
