import * as createSession from './create-session.js';
import * as revokeSession from './revoke-session.js';
import * as show from './show.js';

export const consoleRoutes = [show, createSession, revokeSession];
