import * as dryRun from './dry-run.js';

export const schedulerRoutes = [dryRun];
