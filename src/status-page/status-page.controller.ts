import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { STATUS_PAGE_HTML } from './status-page.html';

/**
 * The status page at `/`. It is static: the browser asks for the admin token once, keeps it in
 * sessionStorage, and reads everything from the admin API, so the page itself needs no token.
 */
@ApiExcludeController()
@Controller()
export class StatusPageController {
  @Get()
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  page(): string {
    return STATUS_PAGE_HTML;
  }
}
