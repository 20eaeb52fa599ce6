import * as cancelTask from './cancel.js';
import * as listTasks from './list.js';
import * as retryTask from './retry.js';
import * as showTask from './show.js';

export const taskRoutes = [listTasks, showTask, cancelTask, retryTask];
