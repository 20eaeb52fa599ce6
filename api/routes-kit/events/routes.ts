import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import * as list from './list.js';
import type { EventSide } from './side.js';

/** The event routes of one API, shown to its side. */
export const eventRoutesFor = (side: EventSide) =>
  [list].map((route) => ({
    register: (app: OpenAPIHono<AppEnv>) => route.register(app, side),
  }));
