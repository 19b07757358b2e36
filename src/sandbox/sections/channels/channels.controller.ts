import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ProjectId } from '../../auth/project-id.decorator';
import { SandboxAuthGuard } from '../../auth/sandbox-auth.guard';
import { success } from '../common/success';
import { ChannelsService } from './channels.service';
import { ExpensesService } from './expenses.service';

/** Marketing channels and expenses. */
@Controller('project/analytics/source')
@UseGuards(SandboxAuthGuard)
export class ChannelsController {
  constructor(
    private readonly channels: ChannelsService,
    private readonly expenses: ExpensesService,
  ) {}

  @Post('list')
  @HttpCode(200)
  async listChannels(@ProjectId() project: number) {
    const data = await this.channels.list(project);
    return success({ data, total: data.length });
  }

  /** The specification answers a top-level array here (no `status`). */
  @Post('cost/list')
  @HttpCode(200)
  listExpenses(@ProjectId() project: number) {
    return this.expenses.list(project);
  }

  @Post('cost/add')
  @HttpCode(200)
  async addExpense(@ProjectId() project: number, @Body() body: unknown) {
    return success({ data: await this.expenses.add(project, body) });
  }

  @Post('cost/update')
  @HttpCode(200)
  async updateExpense(@ProjectId() project: number, @Body() body: unknown) {
    await this.expenses.update(project, body);
    return success();
  }

  @Post('cost/delete')
  @HttpCode(200)
  async deleteExpense(@ProjectId() project: number, @Body() body: unknown) {
    await this.expenses.delete(project, body);
    return success();
  }
}
