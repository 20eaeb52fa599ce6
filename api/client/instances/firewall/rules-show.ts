import { firewallRead } from './firewall-read.js';

export const { register } = firewallRead('/rules', 'The firewall’s rules');
