/**
 * Who asks on the Agent API: the agent of one hypervisor, by the credential it enrolled with.
 * Everything an agent does is confined to its own hypervisor.
 */
export interface AgentActor {
  readonly hypervisorId: string;
  readonly credentialId: string;
}
