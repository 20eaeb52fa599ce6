import * as clearEnabled from './enabled-clear.js';
import * as setEnabled from './enabled-set.js';
import * as showEnabled from './enabled-show.js';
import * as replace from './replace.js';
import * as reset from './reset.js';
import * as clearRules from './rules-clear.js';
import * as replaceRules from './rules-replace.js';
import * as showRules from './rules-show.js';
import * as show from './show.js';

export const firewallRoutes = [
  show,
  replace,
  reset,
  showRules,
  replaceRules,
  clearRules,
  showEnabled,
  setEnabled,
  clearEnabled,
];
