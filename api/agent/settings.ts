import type { AgentSettings } from '../../domain/agent-protocol.js';
import type { Config } from '../../platform/config.js';

/** The pacing of this panel's agents (AgentSettingsBody), derived from its own timeouts. */
export function agentSettings(config: Config): AgentSettings {
  return {
    // Three heartbeats fit in the silence that marks a hypervisor unreachable.
    heartbeat_interval_ms: Math.max(1_000, Math.floor(config.HYPERVISOR_UNREACHABLE_AFTER_MS / 3)),
    // Three progress reports fit in both the activity heartbeat timeout and the task lease.
    progress_interval_ms: Math.max(
      200,
      Math.floor(Math.min(config.AGENT_TASK_HEARTBEAT_TIMEOUT_MS, config.AGENT_TASK_LEASE_MS) / 3),
    ),
    poll_wait_ms: config.AGENT_POLL_MAX_WAIT_MS,
  };
}
