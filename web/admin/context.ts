import type { AppEnv } from '../../http/context.js';
import type { AdminSession } from '../../services/admin-sessions/resolve.js';

/** What a page handler may use: the API's request context, and on signed-in pages the session. */
export interface PageEnv {
  Variables: AppEnv['Variables'] & {
    /** Set by `signedIn` (session/guard.ts). */
    session: AdminSession;
    /** The session's form token, for every form the page renders. */
    csrf: string;
  };
}
