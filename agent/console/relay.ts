import WebSocket from 'ws';
import type { AgentTaskParams } from '../../domain/agent-tasks.js';
import { DriverFailure } from '../drivers/driver.js';

/** An instance's console as a driver offers it: bytes in, bytes out, and its end. */
export interface ConsoleEnd {
  write(data: Buffer): void;
  /** The console's output, and its end (the guest gone, the driver stopping). */
  listen(onData: (data: Buffer) => void, onEnd: () => void): void;
  close(): void;
}

/** How long the gateway has to take the stream before the task fails (retryably). */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * Opens the stream of `console.open`: out to the gateway's relay URL, the stream token as the
 * bearer credential (nothing connects in to the hypervisor). Resolves once the gateway took it;
 * from then on bytes go both ways until either end closes, which closes the other.
 */
export async function openRelay(
  p: AgentTaskParams<'console.open'>,
  end: ConsoleEnd,
  signal: AbortSignal,
): Promise<{ opened: boolean }> {
  const socket = new WebSocket(p.relay_url, {
    headers: { Authorization: `Bearer ${p.stream_token}`, 'X-Console-Session': p.session_id },
    handshakeTimeout: CONNECT_TIMEOUT_MS,
  });
  const abort = () => socket.terminate();
  signal.addEventListener('abort', abort, { once: true });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('unexpected-response', (_req, res) =>
        reject(new DriverFailure('CONSOLE_RELAY_REFUSED', `the gateway answered ${res.statusCode}`, false)),
      );
      socket.once('error', (error) =>
        reject(
          new DriverFailure(
            'CONSOLE_RELAY_UNREACHABLE',
            `the gateway did not answer: ${error.message}`,
            true,
          ),
        ),
      );
    });
  } catch (error) {
    end.close();
    throw error;
  } finally {
    signal.removeEventListener('abort', abort);
  }
  socket.on('message', (data: Buffer, isBinary) => {
    if (isBinary) end.write(data);
  });
  socket.on('close', () => end.close());
  socket.on('error', () => socket.terminate());
  end.listen(
    (data) => {
      if (socket.readyState === WebSocket.OPEN) socket.send(data, { binary: true });
    },
    () => socket.close(1000, 'the console ended'),
  );
  return { opened: true };
}
