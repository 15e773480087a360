/**
 * A loopback proxy that adds one header to every request (the MCP server's bearer token) and changes
 * nothing else: method, path, body, Host and Origin pass as they came, and answers (SSE streams included)
 * stream back as they come. It stands for a client configured with the token, for suites that cannot send
 * one (`@modelcontextprotocol/conformance` connects by URL only): what the suite checks — a rebinding Host
 * refused, a loopback Host answered — is decided by the server behind it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AuthProxy {
  url: string;
  close(): Promise<void>;
}

export async function startAuthProxy(target: string, headers: Record<string, string>): Promise<AuthProxy> {
  const upstream = new URL(target);
  const server = http.createServer((request, response) => {
    const forwarded = http.request(
      { host: upstream.hostname, port: upstream.port, method: request.method, path: request.url, headers: { ...request.headers, ...headers } },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on('error', () => {
      if (!response.headersSent) response.writeHead(502).end();
      else response.destroy();
    });
    response.on('close', () => forwarded.destroy());
    request.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
