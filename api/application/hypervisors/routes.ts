import * as create from './create.js';
import * as issueEnrollmentToken from './enrollment-token.js';
import * as list from './list.js';
import * as setMaintenance from './maintenance.js';
import * as probe from './probe.js';
import * as revokeAgent from './revoke-agent.js';
import * as show from './show.js';
import * as unknownGuests from './unknown-guests.js';
import * as update from './update.js';

export const hypervisorRoutes = [
  list,
  create,
  show,
  update,
  setMaintenance,
  issueEnrollmentToken,
  revokeAgent,
  probe,
  unknownGuests,
];
