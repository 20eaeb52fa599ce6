import { firewallRead } from './firewall-read.js';

export const { register } = firewallRead('/enabled', 'Whether the firewall is enabled');
