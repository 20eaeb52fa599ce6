import { z } from 'zod';
import { CONSOLE_KINDS } from '../console/sessions.js';
import { instanceId } from './shapes.js';

/** An instance's console, relayed by its hypervisor's agent to the gateway that holds the session. */
export const CONSOLE_TASKS = {
  /**
   * Opens a stream of the instance's console to the gateway: the agent connects out to
   * `relay_url` (the gateway's, as its heartbeat gave it: no hypervisor accepts a connection),
   * presents `stream_token` (sealed but at delivery), and relays until either end closes. The task
   * ends once the stream is open; the stream lives on without holding a task.
   */
  'console.open': {
    params: z.object({
      instance_id: instanceId,
      session_id: z.string().uuid(),
      kind: z.enum(CONSOLE_KINDS),
      relay_url: z.string().url().max(2048),
      stream_token: z.string().min(1).max(1024),
    }),
    result: z.object({ opened: z.boolean() }),
  },
} as const;
