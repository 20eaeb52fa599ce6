import { type EmbeddedDatabase, startEmbeddedDatabase } from '../../../db/embedded.js';
import { freePort, isPortOpen } from '../../../platform/ports.js';
import { eventually } from '../eventually.js';
import { listeningPid } from '../stack-process.js';

/**
 * The shape's PostgreSQL, run by its caller (DATABASE_URL, as in production), so that a test can
 * restart it under the stack.
 */
export async function restartablePostgres(dir: string) {
  const options = { dir, port: await freePort() };
  let server: EmbeddedDatabase = await startEmbeddedDatabase(options);
  return {
    url: server.url,
    /**
     * Stopped and started again after `downMs`: a fast shutdown (every connection cut, what was
     * committed written out), or an immediate one (as a crash: recovery from the WAL at the next
     * start).
     */
    async restart(downMs: number, shutdown: 'fast' | 'immediate' = 'fast'): Promise<void> {
      if (shutdown === 'fast') await server.stop();
      else {
        process.kill(listeningPid(options.port)!, 'SIGQUIT');
        await eventually(async () => !(await isPortOpen(options.port)), 30_000, 'PostgreSQL to stop');
      }
      await new Promise((r) => setTimeout(r, downMs));
      server = await startEmbeddedDatabase(options);
    },
    stop: () => server.stop(),
  };
}
