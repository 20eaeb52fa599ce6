/** The Agent API's bodies, as the agent reads them (the panel's OpenAPI document is the reference). */
export interface AgentSettings {
  heartbeat_interval_ms: number;
  progress_interval_ms: number;
  poll_wait_ms: number;
}

export interface EnrollResponse {
  object: 'agent_credential';
  attributes: { credential: string; hypervisor_uuid: string; settings: AgentSettings };
}

export interface HeartbeatResponse {
  object: 'agent_heartbeat_ack';
  attributes: { status: string; maintenance: boolean; settings: AgentSettings };
}

export interface OfferedTask {
  object: 'agent_task';
  attributes: {
    task_id: string;
    type: string;
    params: Record<string, unknown>;
    attempt: number;
    next_sequence: number;
    correlation_id: string | null;
  };
}

export interface ReportAck {
  object: 'agent_task_ack';
  attributes: { task_id: string; sequence: number; state: string; directive: 'continue' | 'stop' };
}

export interface TransferRedemption {
  object: 'transfer_redemption';
  attributes: { migration_uuid: string; disk: string; endpoint: string };
}
