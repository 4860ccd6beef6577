/**
 * The limit server: a bare node:http server that answers every request with one pre-serialised
 * reply. It runs in its own process, like the real server, so that the load generator and the
 * server compete for the two cores the same way in both measurements; its req/s is what this
 * machine, this client and this reply size allow at best.
 *
 * argv: <body file> <content-type>. Reports { port } over IPC once listening.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [bodyFile, contentType] = process.argv.slice(2);
if (!bodyFile || !contentType || !process.send) {
  console.error('usage: fork(limit-server.main.js, [bodyFile, contentType])');
  process.exit(2);
}
const body = readFileSync(bodyFile);
const headers = { 'content-type': contentType, 'content-length': String(body.length) };

const server = createServer((request, response) => {
  // Drain any request body so keep-alive connections stay usable.
  request.resume();
  response.writeHead(200, headers);
  response.end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
process.on('disconnect', () => process.exit(0));
