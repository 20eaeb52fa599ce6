import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/context.js';
import * as create from './create.js';
import * as remove from './delete.js';
import * as deliveries from './deliveries-list.js';
import * as redeliver from './deliveries-redeliver.js';
import * as events from './events.js';
import * as list from './list.js';
import * as rotate from './secret-rotate.js';
import * as show from './show.js';
import type { WebhookSide } from './side.js';
import * as update from './update.js';

/** The webhook endpoints' routes of one API, asked by its side. */
export const webhookRoutesFor = (side: WebhookSide) =>
  [list, create, show, update, remove, rotate, deliveries, redeliver, events].map((route) => ({
    register: (app: OpenAPIHono<AppEnv>) => route.register(app, side),
  }));
