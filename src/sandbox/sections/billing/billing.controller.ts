import { Body, Controller, HttpCode, Post, StreamableFile, UseGuards } from '@nestjs/common';
import { ProjectId } from '../../auth/project-id.decorator';
import { SandboxAuthGuard } from '../../auth/sandbox-auth.guard';
import { attachmentDisposition } from '../common/attachment-disposition';
import { success } from '../common/success';
import { XLSX_CONTENT_TYPE, billingWorkbook } from './billing-workbook';
import { BillingService, exportFileName } from './billing.service';

/** Billing transactions; `project` is required here too ("billing operations list it as required"). */
@Controller('user/billing/transactions')
@UseGuards(SandboxAuthGuard)
export class BillingController {
  constructor(private readonly billing: BillingService) {}

  @Post('list')
  @HttpCode(200)
  async list(@ProjectId() project: number, @Body() body: unknown) {
    return success({ data: (await this.billing.select(project, body)).transactions });
  }

  @Post('list/export/excel')
  @HttpCode(200)
  async exportExcel(@ProjectId() project: number, @Body() body: unknown): Promise<StreamableFile> {
    const { transactions, period } = await this.billing.select(project, body);
    const content = await billingWorkbook(transactions);
    return new StreamableFile(content, {
      type: XLSX_CONTENT_TYPE, length: content.length, disposition: attachmentDisposition(exportFileName(period)),
    });
  }
}
