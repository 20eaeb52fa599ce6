/**
 * A stack's one stop, whoever asks for it (a signal, or a failed start), ending the process with
 * `code`. Ctrl-C reaches a stack twice (the terminal's process group, and npm passing it on): a
 * second request within two seconds is that echo, and waits with the first; a later one is the user
 * insisting, and `hard` ends everything at once.
 */
export function stopOnce(stop: () => Promise<void>, hard: () => void): (code: number) => Promise<never> {
  let since: number | undefined;
  return async (code) => {
    if (since !== undefined) {
      if (Date.now() - since < 2_000) return new Promise<never>(() => {});
      hard();
      process.exit(code);
    }
    since = Date.now();
    await stop();
    process.exit(code);
  };
}
