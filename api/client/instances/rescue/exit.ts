import { rescueAction } from './action-route.js';

export const { register } = rescueAction({
  action: 'exit',
  summary: 'Leave rescue mode',
  description:
    'Restarts the instance from its own disk: an operation of the instance (`rescue_exit`), `restarting`, ' +
    'then `running`. The body may be left out.',
});
