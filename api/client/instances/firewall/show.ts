import { firewallRead } from './firewall-read.js';

export const { register } = firewallRead('', 'The instance’s firewall');
