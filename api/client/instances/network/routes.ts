import * as bandwidth from '../bandwidth.js';
import * as attach from './attach.js';
import * as detach from './detach.js';
import * as list from './list.js';
import * as overview from './overview.js';
import * as promote from './promote.js';
import * as reverseDns from './rdns.js';

export const networkRoutes = [overview, list, attach, detach, promote, reverseDns, bandwidth];
