import * as add from './add.js';
import * as boot from './boot.js';
import * as list from './list.js';
import * as mount from './mount.js';
import * as unmount from './unmount.js';

export const mediaRoutes = [list, add, mount, unmount, boot];
