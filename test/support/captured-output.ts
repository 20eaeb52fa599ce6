/**
 * Everything this process writes to stdout, stderr or the console from `capture()` on, kept to be
 * searched (a secret must never be in it); `restore()` puts the streams back.
 */
export function captureAllOutput(options: { console: boolean }) {
  const output: string[] = [];
  const undo: (() => void)[] = [];
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write;
    stream.write = ((chunk: string | Uint8Array) => {
      output.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return true;
    }) as typeof stream.write;
    undo.push(() => {
      stream.write = write;
    });
  }
  if (options.console)
    for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) {
      const original = console[method];
      console[method] = (...args: unknown[]) => {
        output.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
      };
      undo.push(() => {
        console[method] = original;
      });
    }
  return {
    output,
    restore: () => {
      for (const step of undo) step();
    },
  };
}
