/**
 * Loaded into each server the bench measures (`node --import …/server-probe.js`), so that every
 * figure comes with what the server itself did for it: CPU time (user + system, from
 * process.cpuUsage, microsecond resolution) and a histogram of its event loop's delay
 * (perf_hooks.monitorEventLoopDelay). A round with a high loop delay or CPU per request is a
 * noisy round, whatever its requests/s say. The bench talks to it over the IPC channel: `reset`
 * starts a window, `read` answers with the window so far.
 */
import type { ChildProcess } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface ServerWindow {
  /** CPU time the process used in the window, µs. */
  readonly cpuUs: number;
  /** Event-loop delay in the window, ms: percentiles of the histogram and its maximum. */
  readonly loopDelay: { readonly p50: number; readonly p99: number; readonly max: number };
}

export type ProbeMessage = { probe: 'reset' } | { probe: 'read' };
export type ProbeAnswer = { probe: 'reset' } | { probe: 'read'; window: ServerWindow };

/** Asks a probed server's probe (from the bench's side of the IPC channel). */
export function askProbe(child: ChildProcess, message: ProbeMessage): Promise<ProbeAnswer> {
  return new Promise((resolve, reject) => {
    const onMessage = (answer: ProbeAnswer) => {
      if (answer?.probe !== message.probe) return;
      child.off('message', onMessage);
      resolve(answer);
    };
    child.on('message', onMessage);
    child.send(message, (error) => error && reject(error));
  });
}

// 10 ms is the API's default sampling interval: finer sampling would itself cost the server time.
const RESOLUTION_MS = 10;

if (process.send) {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  let cpuAtReset = process.cpuUsage();
  process.on('message', (message: ProbeMessage) => {
    if (message?.probe === 'reset') {
      histogram.reset();
      cpuAtReset = process.cpuUsage();
      process.send!({ probe: 'reset' } satisfies ProbeAnswer);
    } else if (message?.probe === 'read') {
      const cpu = process.cpuUsage(cpuAtReset);
      const ms = (ns: number) => ns / 1e6;
      process.send!({
        probe: 'read',
        window: {
          cpuUs: cpu.user + cpu.system,
          loopDelay: {
            p50: ms(histogram.percentile(50)),
            p99: ms(histogram.percentile(99)),
            max: ms(histogram.max),
          },
        },
      } satisfies ProbeAnswer);
    }
  });
  // The channel must not keep a server alive that was told to stop.
  process.channel?.unref();
}
