export interface InstanceSshKeysTable {
  instance_id: string;
  name: string;
  fingerprint: string;
  public_key: string;
}
