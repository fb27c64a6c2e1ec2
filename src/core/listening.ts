import type { AddressInfo, Server } from 'node:net';

/** The address and port a server listening on TCP took (port 0 gives it one); throws for one that is not. */
export function listeningAddress(server: Server): AddressInfo {
  const address = server.address();
  if (address === null || typeof address === 'string')
    throw new Error(`the server is not listening on a TCP port (${address ?? 'not listening'})`);
  return address;
}
