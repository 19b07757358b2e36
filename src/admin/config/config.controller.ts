import { HttpCode, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ConfigReloadService } from '../../application/config/config-reload.service';
import { AdminController } from '../admin-controller.decorator';
import { ConfigReloadRefusedResponse, ConfigReloadResponse } from './config-reload.response';
import { AdminScope } from '../auth/admin-scope.decorator';

@AdminController('config')
export class ConfigController {
  constructor(private readonly reloads: ConfigReloadService) {}

  @Post('reload')
  @AdminScope('installation')
  @HttpCode(200)
  @ApiOperation({
    summary: 'read the config file again and take its connections, projects and scoped tokens (as SIGHUP does)',
    description:
      'Connections added, changed and removed take effect now (rows, schedules), and so do the projects and the scoped ' +
      'admin tokens; runs in flight finish under the old settings. A file that does not load is refused with its problems and the running config stays. Other sections ' +
      'are listed in `restart_required` when they changed: they take effect at the next restart. In cluster mode every other daemon is ' +
      'then asked to read its own config file again (`other_daemons_asked`), unless this file was refused.',
  })
  @ApiOkResponse({ type: ConfigReloadResponse })
  @ApiBadRequestResponse({ type: ConfigReloadRefusedResponse, description: 'the file does not load: problems lists each, by path; nothing changed' })
  reload(): Promise<ConfigReloadResponse> {
    return this.reloads.reload();
  }
}
