import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A connector's secret that changes while the daemon runs (a rotating OAuth2 refresh token and its access token),
 * shared by every process of the store (ConnectorSecretStore). Written by compare-and-set; `lock_*` is a
 * lease-like lock (one refresh at a time across the cluster) that expires when its holder dies.
 */
@Entity({ name: 'connector_secret' })
export class ConnectorSecretEntity {
  /** the connector's name: its connections share a secret of the same key (one CRM account, one refresh token) */
  @PrimaryColumn({ type: 'varchar', length: 100 })
  connector: string;

  /** the connector's name for it (e.g. `oauth2:<digest of token URL, client and configured token>`) */
  @PrimaryColumn({ type: 'varchar', length: 120 })
  secret_key: string;

  /** null until first written */
  @Column({ type: 'text', nullable: true })
  value: string | null;

  /** ISO-8601 UTC */
  @Column({ type: 'varchar', length: 32 })
  updated_at: string;

  /** holder id of the process holding the lock; '' when free */
  @Column({ type: 'varchar', length: 200, default: '' })
  lock_holder: string;

  /** ISO-8601 UTC; a lock past it may be taken by anyone */
  @Column({ type: 'varchar', length: 32, default: '' })
  lock_expires_at: string;
}
