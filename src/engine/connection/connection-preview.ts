import { Injectable } from '@nestjs/common';
import { RecordStateStore } from '../../store/repositories/record-state.store';
import { ConnectionLookup } from './connection-lookup';
import { runScopedLogger } from '../engine-logger';
import { EngineSettings } from '../engine-settings';
import { PreviewOptions, PreviewResult } from '../engine-types';
import { withConnectorSession } from './connector-session';
import { previewConnection } from './preview';

/** SyncService.preview: a dry run of a connection (preview.ts) with its connector, store and settings. */
@Injectable()
export class ConnectionPreview {
  constructor(
    private readonly lookup: ConnectionLookup,
    private readonly recordStates: RecordStateStore,
    private readonly settings: EngineSettings,
  ) {}

  preview(connectionId: string, options: PreviewOptions = {}): Promise<PreviewResult> {
    const connection = this.lookup.connection(connectionId);
    const { definition, settings } = this.lookup.connector(connection);
    const logger = runScopedLogger(this.settings.logger, connectionId, null, this.lookup.projectLabel(connection));
    const { mappingVersions } = this.settings;
    const deps = { connectionId, definition, settings, recordStates: this.recordStates, logger, workDir: this.lookup.workDir(connectionId), secrets: this.lookup.secrets(connectionId), mappingVersions };
    return withConnectorSession(deps, (session) => previewConnection({ ...deps, session }, options));
  }
}
