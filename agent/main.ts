import { createLogger } from '../platform/logger.js';
import { Agent } from './agent.js';
import { loadAgentConfig } from './config.js';
import type { HypervisorDriver } from './drivers/driver.js';
import { QemuDriver } from './drivers/qemu/driver.js';
import { hotResizeWorks, liveMigrationWorks } from './drivers/qemu/guests/guest-process.js';
import { SimulatedDriver } from './drivers/simulated/driver.js';

// `npm run agent`: the reference agent, with the simulated driver or QEMU (AGENT_DRIVER).
const config = loadAgentConfig();
const logger = createLogger(config.LOG_LEVEL, { service: 'agent' });

let driver: HypervisorDriver;
if (config.AGENT_DRIVER === 'qemu') {
  const qemu = await QemuDriver.start(config);
  const { accelerator, reason } = qemu.acceleration;
  driver = qemu;
  // The heartbeat reports what this host really offers: the CPU passed through only under KVM,
  // live migration and hot resize only with a QEMU that does them the driver's way, no GPU, the
  // serial console but not the screen.
  const live = liveMigrationWorks();
  const hot = hotResizeWorks();
  config.AGENT_CAPABILITIES = config.AGENT_CAPABILITIES.filter(
    (c) =>
      c !== 'gpu_passthrough' &&
      c !== 'console_graphical' &&
      (c !== 'cpu_host_passthrough' || accelerator === 'kvm') &&
      (c !== 'live_migration' || live) &&
      (c !== 'hot_resize' || hot),
  );
  logger.info('QEMU driver ready', {
    accelerator,
    accelerator_reason: reason,
    network: config.AGENT_QEMU_NETWORK,
    capabilities: config.AGENT_CAPABILITIES,
  });
} else {
  driver = new SimulatedDriver(config);
}
const agent = new Agent(config, driver, logger);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    logger.info('agent shutting down', { signal });
    agent.stop();
  });
}
try {
  await agent.run();
  process.exit(0);
} catch (error) {
  logger.error('agent stopped', { error: (error as Error).message });
  // EX_NOPERM: the credential was refused; a supervisor should not restart it blindly.
  process.exit(77);
}
