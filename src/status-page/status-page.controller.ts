import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { FlowRunsService } from '../application/flows/flow-runs.service';
import { statusPageHtml } from './status-page.html';

/**
 * The status page at `/`. It is static: the browser asks for the admin token once, keeps it in
 * sessionStorage, and reads everything from the admin API, so the page itself needs no token.
 */
@ApiExcludeController()
@Controller()
export class StatusPageController {
  /** the page, with a block per outbound flow: the flows are fixed while the daemon runs */
  private readonly html: string;

  constructor(flows: FlowRunsService) {
    this.html = statusPageHtml(flows.list());
  }

  @Get()
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  page(): string {
    return this.html;
  }
}
