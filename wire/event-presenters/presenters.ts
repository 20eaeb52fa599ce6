import type { EventResource } from '../../domain/events/catalogue.js';
import type { z } from '../zod.js';
import { backupPresenter, snapshotPresenter } from './artifacts.js';
import { consoleSessionPresenter } from './console-session.js';
import { instancePresenter, operationPresenter } from './instance.js';
import { migrationPresenter } from './migration.js';
import { evacuationPresenter, hypervisorPresenter } from './plane.js';
import type { EventPresenter } from './presenter.js';
import { volumePresenter } from './volume.js';
import { webhookEndpointPresenter } from './webhook-endpoint.js';

/** Each resource an event may carry, and the one presenter that renders it. */
export const PRESENTERS = {
  instance: instancePresenter,
  operation: operationPresenter,
  webhook_endpoint: webhookEndpointPresenter,
  backup: backupPresenter,
  snapshot: snapshotPresenter,
  volume: volumePresenter,
  console_session: consoleSessionPresenter,
  migration: migrationPresenter,
  evacuation: evacuationPresenter,
  hypervisor: hypervisorPresenter,
} as const satisfies { [R in EventResource]: EventPresenter<z.ZodType> };
