import * as defaultsReplace from './defaults-replace.js';
import * as defaultsShow from './defaults-show.js';
import * as replace from './replace.js';
import * as show from './show.js';

export const firewallRoutes = [defaultsShow, defaultsReplace, show, replace];
