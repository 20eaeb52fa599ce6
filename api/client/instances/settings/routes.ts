import * as changeHostname from './hostname.js';
import * as regeneratePassword from './password-regenerate.js';
import * as showPassword from './password-show.js';
import * as rename from './rename.js';
import * as changeTimezone from './timezone.js';

export const settingsRoutes = [rename, changeHostname, changeTimezone, showPassword, regeneratePassword];
