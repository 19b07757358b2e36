import { Get, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty } from '@nestjs/swagger';
import type { Request } from 'express';
import { AdminController } from '../admin-controller.decorator';
import { principalOfRequest } from '../auth/admin-principal';
import { AdminScope } from '../auth/admin-scope.decorator';

export class SessionResponse {
  @ApiProperty({ description: "`full` for the full admin token, else the name of its admin.tokens entry (never the token itself)", example: 'acme' })
  name!: string;

  @ApiProperty({ enum: ['full', 'operator', 'viewer'], description: 'full: everything; operator: reads and runs its projects; viewer: reads its projects only' })
  role!: 'full' | 'operator' | 'viewer';

  @ApiProperty({ type: [String], nullable: true, description: "the projects the token sees; null for every project (the full token)", example: ['acme'] })
  projects!: string[] | null;
}

/** Who the caller's token is: what the status page needs to offer only what the token may do. */
@AdminController('session')
export class SessionController {
  @Get()
  @AdminScope('list')
  @ApiOperation({ summary: "the caller's token: its name, its role and the projects it sees (a viewer's page shows no run buttons)" })
  @ApiOkResponse({ type: SessionResponse })
  session(@Req() request: Request): SessionResponse {
    const principal = principalOfRequest(request);
    if (!principal || principal.kind === 'full') return { name: 'full', role: 'full', projects: null };
    return { name: principal.name, role: principal.role, projects: [...principal.projects] };
  }
}
