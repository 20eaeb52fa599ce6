/**
 * A line writer on one of the process's output streams that goes quiet once its reader has gone:
 * `cloudsvc … | head` closes the pipe early on purpose, and Node, which ignores SIGPIPE, would
 * otherwise die of the EPIPE with a stack trace. The command still finishes (a migration it
 * started is not left half-watched) and exits with its own code; only its output goes nowhere.
 */
export function lineWriter(stream: NodeJS.WritableStream): (line: string) => void {
  let gone = false;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    gone = true;
    // Any other failure to write is worth a word, where one can still be said.
    if (error.code !== 'EPIPE' && stream !== process.stderr)
      process.stderr.write(`cloudsvc: output lost (${error.code ?? error.message})\n`);
  });
  return (line) => {
    if (!gone) stream.write(`${line}\n`);
  };
}
