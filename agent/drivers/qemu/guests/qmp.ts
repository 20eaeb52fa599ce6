import { createConnection, type Socket } from 'node:net';

/** A QMP command QEMU refused: its error class and description. */
export class QmpError extends Error {
  constructor(
    readonly errorClass: string,
    message: string,
  ) {
    super(message);
  }
}

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

/**
 * A QEMU Machine Protocol client over the guest's unix socket. One connection per operation:
 * the agent keeps no connection open, so a guest outlives its agent and a restarted agent
 * simply connects again.
 */
export class Qmp {
  readonly #socket: Socket;
  readonly #pending: Pending[] = [];
  #buffer = '';
  #closed: Error | undefined;

  private constructor(socket: Socket) {
    this.#socket = socket;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => this.#receive(chunk));
    socket.on('close', () => this.#fail(new Error('QMP connection closed')));
    socket.on('error', (error) => this.#fail(error));
  }

  static async connect(path: string, timeoutMs = 5000): Promise<Qmp> {
    const socket = await new Promise<Socket>((resolve, reject) => {
      const s = createConnection(path);
      const timer = setTimeout(() => {
        s.destroy();
        reject(new Error(`QMP socket ${path} did not answer`));
      }, timeoutMs);
      s.once('connect', () => {
        clearTimeout(timer);
        resolve(s);
      });
      s.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    const qmp = new Qmp(socket);
    // The greeting answers first, then capabilities negotiation opens command mode.
    await new Promise<unknown>((resolve, reject) => qmp.#pending.push({ resolve, reject }));
    await qmp.execute('qmp_capabilities');
    return qmp;
  }

  /** Connects, runs `work`, and closes, whatever happens. */
  static async with<T>(path: string, work: (qmp: Qmp) => Promise<T>): Promise<T> {
    const qmp = await Qmp.connect(path);
    try {
      return await work(qmp);
    } finally {
      qmp.close();
    }
  }

  execute<T = unknown>(command: string, args?: Record<string, unknown>): Promise<T> {
    if (this.#closed) return Promise.reject(this.#closed);
    return new Promise<T>((resolve, reject) => {
      this.#pending.push({ resolve: resolve as (value: unknown) => void, reject });
      this.#socket.write(
        `${JSON.stringify(args ? { execute: command, arguments: args } : { execute: command })}\n`,
      );
    });
  }

  close(): void {
    this.#socket.destroy();
  }

  #receive(chunk: string): void {
    this.#buffer += chunk;
    for (let newline = this.#buffer.indexOf('\n'); newline >= 0; newline = this.#buffer.indexOf('\n')) {
      const line = this.#buffer.slice(0, newline).trim();
      this.#buffer = this.#buffer.slice(newline + 1);
      if (!line) continue;
      const message = JSON.parse(line) as {
        QMP?: unknown;
        return?: unknown;
        error?: { class: string; desc: string };
        event?: string;
      };
      // Events are not waited for here: callers poll the state they need (query-*), which
      // survives a reconnect where an event would be lost.
      if (message.event) continue;
      const pending = this.#pending.shift();
      if (!pending) continue;
      if (message.error) pending.reject(new QmpError(message.error.class, message.error.desc));
      else pending.resolve(message.QMP ?? message.return);
    }
  }

  #fail(error: Error): void {
    this.#closed ??= error;
    for (const pending of this.#pending.splice(0)) pending.reject(error);
  }
}
