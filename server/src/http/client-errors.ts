import type { Server } from 'node:http';
import type { Socket } from 'node:net';

const REASONS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'the request headers are too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'the request took too long to arrive'],
};

/**
 * Requests that Node's HTTP parser refuses before Express sees them (malformed request line or
 * headers, oversized headers) get the API's error body too, instead of Node's bare answer.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || (err.code === 'ECONNRESET')) return void socket.destroy();
    const [status, text, message] = REASONS[err.code ?? ''] ?? [400, 'Bad Request', 'the request is not valid HTTP'];
    const body = JSON.stringify({ statusCode: status, message: [message], error: text });
    socket.end(`HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });
}
